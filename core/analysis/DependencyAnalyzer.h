#pragma once

#include "analysis/ProducerList.h"
#include "trace/ArchReg.h"
#include "trace/TraceRecord.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// Finds the true (read-after-write) dependencies of a record stream.
///
/// - Registers: each source register depends on the last earlier instruction that wrote it. The
///   flags are one register (ArchReg::kFlags); ArchReg::kNone, ArchReg::kRip and unknown
///   numbers are ignored. Write-after-read and write-after-write are not dependencies (renaming
///   removes them). An instruction reads its sources before writing its destinations, so
///   `add rax, rax` depends on the previous writer of rax, not on itself. The stack pointer
///   written by an instruction with loads (pop, ret, leave) is an early producer
///   (ProducerList::isEarly): ready one cycle after that instruction issues, since real cores
///   compute it with an add beside the load. (`pop rsp`, which loads rsp itself, is
///   treated the same; compilers do not emit it.)
/// - Memory: a load depends on the most recent earlier store to each byte it reads (byte-exact
///   overlap: a 4-byte load of bytes 4–7 after an 8-byte store of bytes 0–7 depends on it; after
///   a store of bytes 0–3 it does not). Last writers are kept per byte in an open-addressing map
///   of 8-byte granules, so partial overlaps and several stores feeding one load are exact.
///   An instruction's loads read before its own stores write.
///
/// Indices are positions in the stream since construction or reset() (int32: regions are far
/// below 2^31 records). Memory use grows with the number of distinct granules stored to.
class DependencyAnalyzer {
public:
    DependencyAnalyzer();

    /// Forgets all writers; the next record gets index 0.
    void reset();
    /// Producers of the next record (absolute indices), then records its writes.
    ProducerList next(const TraceRecord& record);
    /// Records seen since construction or reset().
    std::size_t processed() const { return static_cast<std::size_t>(nextIndex_); }

    /// Dependencies of records[firstMeasured..] with indices relative to firstMeasured: earlier
    /// records (a region's warm-up) count as writers, but producers among them are dropped.
    static std::vector<ProducerList> analyze(std::span<const TraceRecord> records,
                                             std::size_t firstMeasured = 0);

private:
    static constexpr std::uint64_t kEmptyKey = ~std::uint64_t{0};
    struct Granule {
        std::uint64_t key = kEmptyKey; ///< byte address >> 3
        std::array<std::int32_t, 8> writer{-1, -1, -1, -1, -1, -1, -1, -1};
    };

    std::size_t slotOf(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> hashShift_);
    }
    const Granule* find(std::uint64_t key) const;
    Granule& findOrInsert(std::uint64_t key);
    void rehash(std::size_t capacity);

    std::array<std::int32_t, ArchReg::kCount> lastWriter_{};
    /// The last writer computes this register without waiting for its loads (ProducerList).
    std::array<bool, ArchReg::kCount> earlyWriter_{};
    std::vector<Granule> granules_;
    std::size_t used_ = 0;
    unsigned hashShift_ = 64;
    std::int32_t nextIndex_ = 0;
};

} // namespace concorde
