#include "analysis/SetAssociativeCache.h"

#include "common/ConcordeError.h"

#include <algorithm>
#include <bit>
#include <string>

namespace concorde {

SetAssociativeCache::SetAssociativeCache(std::uint64_t capacityBytes, std::uint32_t ways,
                                         std::uint32_t lineBytes) {
    if (!std::has_single_bit(ways) || ways > 64)
        throw badInput("cache associativity must be a power of two of at most 64, not " +
                       std::to_string(ways));
    if (!std::has_single_bit(lineBytes))
        throw badInput("cache line size must be a power of two, not " + std::to_string(lineBytes));
    const std::uint64_t lines = capacityBytes / lineBytes;
    if (lines < ways || lines / ways > 0xFFFFFFFFull)
        throw badInput("cache of " + std::to_string(capacityBytes) + " bytes cannot hold " +
                       std::to_string(ways) + "-way sets of " + std::to_string(lineBytes) +
                       "-byte lines");
    ways_ = ways;
    sets_ = static_cast<std::uint32_t>(lines / ways);
    treeLevels_ = static_cast<std::uint32_t>(std::countr_zero(ways));
    powerOfTwoSets_ = std::has_single_bit(sets_);
    setMask_ = powerOfTwoSets_ ? sets_ - 1 : 0;
    tags_.assign(std::uint64_t{sets_} * ways_, kInvalid);
    plru_.assign(sets_, 0);
    dirty_.assign(sets_, 0);
}

bool SetAssociativeCache::probe(std::uint64_t line) const {
    const std::uint64_t* tags = &tags_[std::uint64_t{setOf(line)} * ways_];
    for (std::uint32_t way = 0; way < ways_; ++way)
        if (tags[way] == line)
            return true;
    return false;
}

bool SetAssociativeCache::access(std::uint64_t line) {
    const std::uint32_t set = setOf(line);
    const std::uint64_t* tags = &tags_[std::uint64_t{set} * ways_];
    for (std::uint32_t way = 0; way < ways_; ++way) {
        if (tags[way] == line) {
            touch(set, way);
            ++hits_;
            return true;
        }
    }
    ++misses_;
    insert(set, line);
    return false;
}

bool SetAssociativeCache::fill(std::uint64_t line) {
    const std::uint32_t set = setOf(line);
    const std::uint64_t* tags = &tags_[std::uint64_t{set} * ways_];
    for (std::uint32_t way = 0; way < ways_; ++way) {
        if (tags[way] == line) {
            touch(set, way);
            return true;
        }
    }
    insert(set, line);
    return false;
}

std::uint32_t SetAssociativeCache::wayOf(std::uint32_t set, std::uint64_t line) const {
    const std::uint64_t* tags = &tags_[std::uint64_t{set} * ways_];
    for (std::uint32_t way = 0; way < ways_; ++way)
        if (tags[way] == line)
            return way;
    return ways_;
}

SetAssociativeCache::Eviction SetAssociativeCache::victimOf(std::uint32_t set) const {
    const std::uint32_t way = victim(set);
    const std::uint64_t tag = tags_[std::uint64_t{set} * ways_ + way];
    if (tag == kInvalid)
        return {};
    return {true, ((dirty_[set] >> way) & 1u) != 0, tag};
}

bool SetAssociativeCache::access(std::uint64_t line, bool write, Eviction& evicted) {
    const std::uint32_t set = setOf(line);
    std::uint32_t way = wayOf(set, line);
    const bool hit = way < ways_;
    evicted = {};
    if (hit) {
        touch(set, way);
        ++hits_;
    } else {
        ++misses_;
        evicted = victimOf(set);
        way = insert(set, line);
    }
    if (write)
        dirty_[set] |= std::uint64_t{1} << way;
    return hit;
}

bool SetAssociativeCache::fill(std::uint64_t line, bool dirty, Eviction& evicted) {
    const std::uint32_t set = setOf(line);
    std::uint32_t way = wayOf(set, line);
    const bool present = way < ways_;
    evicted = {};
    if (present) {
        touch(set, way);
    } else {
        evicted = victimOf(set);
        way = insert(set, line);
    }
    if (dirty)
        dirty_[set] |= std::uint64_t{1} << way;
    return present;
}

bool SetAssociativeCache::markDirty(std::uint64_t line) {
    const std::uint32_t set = setOf(line);
    const std::uint32_t way = wayOf(set, line);
    if (way == ways_)
        return false;
    dirty_[set] |= std::uint64_t{1} << way;
    return true;
}

bool SetAssociativeCache::dirty(std::uint64_t line) const {
    const std::uint32_t set = setOf(line);
    const std::uint32_t way = wayOf(set, line);
    return way < ways_ && ((dirty_[set] >> way) & 1u) != 0;
}

void SetAssociativeCache::clear() {
    std::fill(tags_.begin(), tags_.end(), kInvalid);
    std::fill(plru_.begin(), plru_.end(), 0);
    std::fill(dirty_.begin(), dirty_.end(), 0);
}

void SetAssociativeCache::resetStats() {
    hits_ = 0;
    misses_ = 0;
}

std::uint32_t SetAssociativeCache::insert(std::uint32_t set, std::uint64_t line) {
    const std::uint32_t way = victim(set);
    tags_[std::uint64_t{set} * ways_ + way] = line;
    dirty_[set] &= ~(std::uint64_t{1} << way); // a new line arrives clean
    touch(set, way);
    return way;
}

void SetAssociativeCache::touch(std::uint32_t set, std::uint32_t way) {
    std::uint64_t bits = plru_[set];
    std::uint32_t node = 0;
    for (std::uint32_t level = treeLevels_; level-- > 0;) {
        const std::uint32_t upper = (way >> level) & 1u;
        // Point the node at the other half: the next victim is not on this way's path.
        if (upper)
            bits &= ~(std::uint64_t{1} << node);
        else
            bits |= std::uint64_t{1} << node;
        node = 2 * node + 1 + upper;
    }
    plru_[set] = bits;
}

std::uint32_t SetAssociativeCache::victim(std::uint32_t set) const {
    const std::uint64_t* tags = &tags_[std::uint64_t{set} * ways_];
    for (std::uint32_t way = 0; way < ways_; ++way)
        if (tags[way] == kInvalid)
            return way;
    const std::uint64_t bits = plru_[set];
    std::uint32_t node = 0;
    std::uint32_t way = 0;
    for (std::uint32_t level = 0; level < treeLevels_; ++level) {
        const std::uint32_t upper = static_cast<std::uint32_t>((bits >> node) & 1u);
        way = 2 * way + upper;
        node = 2 * node + 1 + upper;
    }
    return way;
}

} // namespace concorde
