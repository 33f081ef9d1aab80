#pragma once

#include <cstdint>

namespace concorde {

/// The per-branch arithmetic of TagePredictor done for all its tagged tables at once, one
/// 32-bit lane per table. Each function exists twice: the dispatched one runs an AVX2 clone
/// where the CPU has AVX2 (chosen at load time) and the portable one otherwise; the *Portable
/// one is always the baseline code, so that tests can compare the two.
inline constexpr int kTageLanes = 16;

/// Hashing inputs, kTageLanes entries each (an unused table has zero masks).
struct TageHashLanes {
    const std::uint32_t* pathMask;   ///< which path-history bits the table uses
    const std::uint32_t* rotate;     ///< left rotation of the folded path, < index width
    const std::uint32_t* rotateBack; ///< index width − rotate
    const std::uint32_t* indexShift; ///< PC hash shift
    const std::uint32_t* indexMask;  ///< 2^index width − 1
    const std::uint32_t* tagShift;   ///< the tag width
    const std::uint32_t* tagMask;    ///< 2^tag width − 1
    const std::uint32_t* foldIndex;  ///< folded global history, index width
    const std::uint32_t* foldTag0;   ///< folded global history, tag width
    const std::uint32_t* foldTag1;   ///< folded global history, tag width − 1
};

/// Every table's index and tag for one branch:
///   index = (pIndex ^ pIndex >> indexShift ^ foldIndex ^ rotl(fold(pathBits & pathMask))) &
///   indexMask tag   = (pTag ^ pTag >> tagShift ^ foldTag0 ^ foldTag1 << 1) & tagMask
/// where fold(p) = (p ^ p >> logSize) & indexMask.
void hashTageTables(const TageHashLanes& lanes, std::uint32_t logSize, std::uint32_t pIndex,
                    std::uint32_t pTag, std::uint32_t pathBits, std::uint32_t* indices,
                    std::uint32_t* tags);
void hashTageTablesPortable(const TageHashLanes& lanes, std::uint32_t logSize, std::uint32_t pIndex,
                            std::uint32_t pTag, std::uint32_t pathBits, std::uint32_t* indices,
                            std::uint32_t* tags);

/// The three folded histories of every table (index, tag, tag − 1), kTageLanes entries each.
struct TageFoldLanes {
    std::uint32_t* values[3];
    const std::uint32_t* outBits[3]; ///< 1 << (history length mod width); 0 for an unused table
    const std::uint32_t* tops[3];    ///< 1 << width; 1 for an unused table
};

/// Shifts the outcome `in` (0 or 1) into every fold. The bit leaving table i's history is
/// history[(head + lengths[i]) & historyMask] (history holds one outcome per byte, newest at
/// head); it is taken out at outBit, and the bit shifted out at the top wraps into bit 0.
void pushTageFolds(const std::uint8_t* history, unsigned head, unsigned historyMask,
                   const std::uint16_t* lengths, std::uint32_t in, const TageFoldLanes& folds);
void pushTageFoldsPortable(const std::uint8_t* history, unsigned head, unsigned historyMask,
                           const std::uint16_t* lengths, std::uint32_t in,
                           const TageFoldLanes& folds);

} // namespace concorde
