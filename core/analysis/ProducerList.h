#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace concorde {

/// The producers an instruction depends on (read-after-write through registers or memory), as
/// instruction indices. Fixed capacity so that per-instruction storage stays small (36 bytes)
/// and allocation-free. Duplicates are merged; when more than kCapacity distinct producers exist
/// the youngest ones are kept, since they are the ones that finish last in practice.
struct ProducerList {
    static constexpr std::size_t kCapacity = 8;

    /// Producer indices; the first `count` are valid, the rest are -1.
    std::array<std::int32_t, kCapacity> index{-1, -1, -1, -1, -1, -1, -1, -1};
    std::uint8_t count = 0;
    /// Bit k set: index[k] is a memory (store → load) producer, else a register producer.
    /// A producer that is both has its bit set.
    std::uint8_t memoryMask = 0;
    /// Bit k set: every dependence on index[k] is through a register that producer computes
    /// without waiting for its own loads (the stack pointer of pop, ret and leave: an
    /// address-side add), so it is ready one cycle after the producer issues, not when its load
    /// data returns.
    std::uint8_t earlyMask = 0;

    const std::int32_t* begin() const { return index.data(); }
    const std::int32_t* end() const { return index.data() + count; }
    std::size_t size() const { return count; }
    bool empty() const { return count == 0; }
    bool isMemory(std::size_t k) const { return (memoryMask >> k) & 1u; }
    bool isEarly(std::size_t k) const { return (earlyMask >> k) & 1u; }

    bool contains(std::int32_t producer) const {
        for (std::size_t k = 0; k < count; ++k)
            if (index[k] == producer)
                return true;
        return false;
    }

    /// Adds a producer (merging duplicates: a merged producer is early only if every
    /// dependence on it is; when full, replaces the oldest if `producer` is younger).
    void add(std::int32_t producer, bool memory, bool early = false) {
        const std::uint8_t bit = memory ? 1 : 0;
        const std::uint8_t earlyBit = early && !memory ? 1 : 0;
        for (std::size_t k = 0; k < count; ++k) {
            if (index[k] == producer) {
                memoryMask |= static_cast<std::uint8_t>(bit << k);
                if (!earlyBit)
                    earlyMask = static_cast<std::uint8_t>(earlyMask & ~(1u << k));
                return;
            }
        }
        std::size_t slot = count;
        if (count == kCapacity) {
            slot = 0;
            for (std::size_t k = 1; k < kCapacity; ++k)
                if (index[k] < index[slot])
                    slot = k;
            if (index[slot] >= producer)
                return;
        } else {
            ++count;
        }
        index[slot] = producer;
        memoryMask = static_cast<std::uint8_t>((memoryMask & ~(1u << slot)) | (bit << slot));
        earlyMask = static_cast<std::uint8_t>((earlyMask & ~(1u << slot)) | (earlyBit << slot));
    }
};

} // namespace concorde
