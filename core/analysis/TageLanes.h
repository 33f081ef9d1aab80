#pragma once

#include <cstdint>

namespace concorde {

/// TagePredictor's per-table arithmetic, one 32-bit lane per tagged table.
inline constexpr int kTageLanes = 16;

/// The per-table state of TagePredictor's tagged tables, kTageLanes lanes wide (an unused
/// table has zero masks, hashes to index and tag 0 and keeps its folds at 0). One block, so
/// that the kernels below reach every lane array at a fixed offset from one pointer.
struct alignas(32) TageLanes {
    // Hashing constants, derived from the geometry.
    std::uint32_t pathMask[kTageLanes]{};   ///< which path-history bits the table uses
    std::uint32_t rotate[kTageLanes]{};     ///< left rotation of the folded path, < index width
    std::uint32_t rotateBack[kTageLanes]{}; ///< index width − rotate
    std::uint32_t indexShift[kTageLanes]{}; ///< PC hash shift
    std::uint32_t indexMask[kTageLanes]{};  ///< 2^index width − 1
    std::uint32_t tagShift[kTageLanes]{};   ///< the tag width
    std::uint32_t tagMask[kTageLanes]{};    ///< 2^tag width − 1
    std::uint32_t tableBase[kTageLanes]{};  ///< first slot of the table in the tag array
    std::uint32_t length[kTageLanes]{};     ///< global-history length; 0 if unused
    /// The global history folded (xor of w-bit chunks) into three widths: [0] the index width,
    /// [1] the tag width, [2] the tag width − 1.
    std::uint32_t fold[3][kTageLanes]{};
    /// 1 << (length mod width): where the bit leaving the history is taken out; 0 if unused.
    std::uint32_t outBit[3][kTageLanes]{};
    /// The fold's width, and 2^width − 1 (both 0 for an unused table, whose fold stays 0).
    std::uint32_t width[3][kTageLanes]{};
    std::uint32_t foldMask[3][kTageLanes]{};
    std::uint32_t logSize = 0;    ///< index width, the same for every table
    std::uint32_t usedTables = 0; ///< bit i set for every table in use
};

/// One conditional branch's lookup: every tagged table's index and tag.
struct alignas(32) TageLookup {
    std::uint32_t indices[kTageLanes]{};
    std::uint32_t tags[kTageLanes]{};
};

/// What the hash of one conditional branch takes besides the folds.
struct TageBranchHash {
    std::uint32_t pIndex = 0;   ///< the PC hashed for the index
    std::uint32_t pTag = 0;     ///< the PC hashed for the tag
    std::uint32_t pathBits = 0; ///< the path history before the branch
};

/// Every table's index and tag for one branch, from the folds as they are now:
///   index = (pIndex ^ pIndex >> indexShift ^ fold[0] ^ rotl(fold(pathBits & pathMask))) &
///           indexMask, with fold(p) = (p ^ p >> logSize) & indexMask;
///   tag   = (pTag ^ pTag >> tagShift ^ fold[1] ^ fold[2] << 1) & tagMask.
/// Depends on the folds only, not on the tables' contents, so a run of branches can be hashed
/// ahead of training on them (TagePredictor::train).
/// Runs AVX2 code where the CPU has it; the *Portable function is always the baseline code, so
/// that tests can compare the two.
void hashTageTables(const TageLanes& lanes, std::uint32_t pIndex, std::uint32_t pTag,
                    std::uint32_t pathBits, TageLookup& lookup);
void hashTageTablesPortable(const TageLanes& lanes, std::uint32_t pIndex, std::uint32_t pTag,
                            std::uint32_t pathBits, TageLookup& lookup);

/// The tables that hit: bit i set when tableTags[tableBase[i] + indices[i]] == tags[i] for a
/// used table. tableTags needs one element of padding after its last entry.
std::uint32_t matchTageTables(const TageLanes& lanes, const std::uint16_t* tableTags,
                              const TageLookup& lookup);
std::uint32_t matchTageTablesPortable(const TageLanes& lanes, const std::uint16_t* tableTags,
                                      const TageLookup& lookup);

/// Shifts the outcome `in` (0 or 1) into every fold. The bit leaving table i's history is
/// history[(head + length[i]) & historyMask] (one outcome per byte, newest at head; history
/// needs 3 bytes of padding after historyMask + 1); it is taken out at outBit, and the bit
/// shifted out at the top wraps into bit 0.
void pushTageFolds(TageLanes& lanes, const std::uint8_t* history, unsigned head,
                   unsigned historyMask, std::uint32_t in);
void pushTageFoldsPortable(TageLanes& lanes, const std::uint8_t* history, unsigned head,
                           unsigned historyMask, std::uint32_t in);

/// Up to 32 outcomes of a history of one outcome per byte (0 or 1), read backwards: bit j of the
/// result is history[(at - j) & historyMask] for j < count ≤ 32; the other bits are 0.
std::uint32_t historyBitsBackwards(const std::uint8_t* history, unsigned historyMask, unsigned at,
                                   int count);
std::uint32_t historyBitsBackwardsPortable(const std::uint8_t* history, unsigned historyMask,
                                           unsigned at, int count);

/// A run of up to 32 conditional branches at once: for each branch j in turn, its lookup from
/// the folds (hashTageTables), then its outcome (bit j of `outcomes`) shifted into the folds
/// with bit j of leaving[i] as the bit leaving table i's history (pushTageFolds). The same folds
/// and lookups as those calls one by one, but the folds stay in registers and no history is
/// read: the caller knows the outcomes, and so the leaving bits, ahead. `leaving` holds
/// kTageLanes words and is 32-byte aligned.
void hashAndPushTageRun(TageLanes& lanes, const TageBranchHash* branches, int count,
                        std::uint32_t outcomes, const std::uint32_t* leaving, TageLookup* lookups);
void hashAndPushTageRunPortable(TageLanes& lanes, const TageBranchHash* branches, int count,
                                std::uint32_t outcomes, const std::uint32_t* leaving,
                                TageLookup* lookups);

} // namespace concorde
