#pragma once

#include <cstdint>
#include <vector>

namespace concorde {

/// A set-associative tag array with tree-PLRU replacement, addressed by line address
/// (byte address >> log2(line size)). Only tags are modelled, no data. A dirty bit per way is
/// kept for the callers that write (the timed simulator); access(), probe() and fill() without
/// an Eviction never set it, so the trace analysis sees a plain tag array.
///
/// Geometry: capacity / lineBytes lines in sets of `ways` (a power of two, at most 64). When the
/// number of sets is a power of two the set is the low bits of the line address; otherwise (e.g.
/// 48 kB 8-way = 96 sets) the set is line % sets. Modulo indexing keeps the exact capacity and
/// spreads consecutive lines over all sets, which is what matters for an analytical cache model;
/// real designs with such sizes raise the associativity instead. If the line count is not a
/// multiple of `ways` the remainder is dropped (never the case for the parameter ranges).
///
/// Tree-PLRU: each set keeps ways-1 bits forming a binary tree over its ways. A bit says on which
/// side the next victim is (0 = lower half, 1 = upper half); touching a way points every bit on
/// its path away from it. Invalid ways are filled first, lowest way first.
///
/// Storage is two flat arrays (tags, one 64-bit PLRU word per set); no call allocates.
class SetAssociativeCache {
public:
    /// Throws a bad-input ConcordeError if `ways` is not a power of two ≤ 64, `lineBytes` is not
    /// a power of two, or the capacity holds fewer lines than one set.
    SetAssociativeCache(std::uint64_t capacityBytes, std::uint32_t ways, std::uint32_t lineBytes);

    /// Demand access: true on a hit. A miss fills the line (evicting the PLRU victim); hits and
    /// fills both make the line most recently used. Updates the hit/miss counters.
    bool access(std::uint64_t line);
    /// True if the line is present. Changes nothing.
    bool probe(std::uint64_t line) const;
    /// Installs the line without counting an access (prefetches, fills from below). Returns true
    /// if it was already present; either way the line becomes most recently used.
    bool fill(std::uint64_t line);

    /// A line displaced by an insertion: `valid` is false when the way was empty or nothing was
    /// inserted (a hit).
    struct Eviction {
        bool valid = false;
        bool dirty = false;
        std::uint64_t line = 0;
    };
    /// access() for a cache with dirty state: a `write` marks the line dirty (hit or miss), and
    /// a miss reports the line it displaced in `evicted`.
    bool access(std::uint64_t line, bool write, Eviction& evicted);
    /// fill() that reports the displaced line; `dirty` marks the installed (or present) line
    /// dirty, as a writeback from the level above does.
    bool fill(std::uint64_t line, bool dirty, Eviction& evicted);
    /// Marks a present line dirty; false (and no change) if it is absent.
    bool markDirty(std::uint64_t line);
    /// True if the line is present and dirty.
    bool dirty(std::uint64_t line) const;

    /// Empties the cache (all ways invalid, PLRU state reset); counters are kept.
    void clear();
    void resetStats();

    std::uint64_t hits() const { return hits_; }
    std::uint64_t misses() const { return misses_; }
    std::uint64_t accesses() const { return hits_ + misses_; }
    std::uint32_t sets() const { return sets_; }
    std::uint32_t ways() const { return ways_; }
    std::uint64_t capacityLines() const { return std::uint64_t{sets_} * ways_; }

private:
    static constexpr std::uint64_t kInvalid = ~std::uint64_t{0};

    std::uint32_t setOf(std::uint64_t line) const {
        return powerOfTwoSets_ ? static_cast<std::uint32_t>(line & setMask_)
                               : static_cast<std::uint32_t>(line % sets_);
    }
    /// Inserts `line` into `set` at the PLRU victim (or first invalid way), clean, and touches
    /// it; returns the way.
    std::uint32_t insert(std::uint32_t set, std::uint64_t line);
    /// The way holding `line` in `set`, or ways_ if absent.
    std::uint32_t wayOf(std::uint32_t set, std::uint64_t line) const;
    /// What insert() at the victim of `set` would displace.
    Eviction victimOf(std::uint32_t set) const;
    void touch(std::uint32_t set, std::uint32_t way);
    std::uint32_t victim(std::uint32_t set) const;

    std::uint32_t sets_ = 1;
    std::uint32_t ways_ = 1;
    std::uint32_t treeLevels_ = 0;    ///< log2(ways)
    std::uint64_t setMask_ = 0;       ///< sets-1 when sets is a power of two
    bool powerOfTwoSets_ = true;      ///< mask indexing; otherwise modulo
    std::vector<std::uint64_t> tags_; ///< sets × ways line addresses, kInvalid when empty
    /// One PLRU tree per set: bit n is node n (root 0, children 2n+1 and 2n+2).
    std::vector<std::uint64_t> plru_;
    /// One dirty mask per set: bit w is way w.
    std::vector<std::uint64_t> dirty_;
    std::uint64_t hits_ = 0;
    std::uint64_t misses_ = 0;
};

} // namespace concorde
