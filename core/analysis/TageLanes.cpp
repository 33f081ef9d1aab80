#include "analysis/TageLanes.h"

#include <cstring>

namespace concorde {

namespace {

// The bodies are written once and inlined into both the dispatched function (which has an
// AVX2 clone) and the portable one, so that the two cannot drift apart.

[[gnu::always_inline]] inline void hashBody(const TageHashLanes& lanes, std::uint32_t logSize,
                                            std::uint32_t pIndex, std::uint32_t pTag,
                                            std::uint32_t pathBits,
                                            std::uint32_t* __restrict indices,
                                            std::uint32_t* __restrict tags) {
    const std::uint32_t* __restrict pathMask = lanes.pathMask;
    const std::uint32_t* __restrict rotate = lanes.rotate;
    const std::uint32_t* __restrict rotateBack = lanes.rotateBack;
    const std::uint32_t* __restrict shift = lanes.indexShift;
    const std::uint32_t* __restrict indexMask = lanes.indexMask;
    const std::uint32_t* __restrict tagShift = lanes.tagShift;
    const std::uint32_t* __restrict tagMask = lanes.tagMask;
    const std::uint32_t* __restrict foldIndex = lanes.foldIndex;
    const std::uint32_t* __restrict foldTag0 = lanes.foldTag0;
    const std::uint32_t* __restrict foldTag1 = lanes.foldTag1;
    // No branch and no cross-lane dependency, so the compiler vectorises it; the shifts differ
    // per lane, which only AVX2 has an instruction for.
    for (int i = 0; i < kTageLanes; ++i) {
        // A rotation by 0 leaves the path as it is (path < 2^logSize, so path >> logSize = 0).
        std::uint32_t path = pathBits & pathMask[i];
        path = (path ^ (path >> logSize)) & indexMask[i];
        path = ((path << rotate[i]) | (path >> rotateBack[i])) & indexMask[i];
        indices[i] = (pIndex ^ (pIndex >> shift[i]) ^ foldIndex[i] ^ path) & indexMask[i];
        tags[i] = (pTag ^ (pTag >> tagShift[i]) ^ foldTag0[i] ^ (foldTag1[i] << 1)) & tagMask[i];
    }
}

/// Eight 32-bit lanes (GCC/Clang vector extension): AVX2 in the avx2 clone, two SSE2 halves in
/// the portable code. Loaded and stored with memcpy, never returned from a helper: a 32-byte
/// vector is passed differently with and without AVX, and clang refuses that.
using Lanes = std::uint32_t __attribute__((vector_size(32)));

[[gnu::always_inline]] inline void pushBody(const std::uint8_t* __restrict history, unsigned head,
                                            unsigned historyMask,
                                            const std::uint16_t* __restrict lengths,
                                            std::uint32_t in, const TageFoldLanes& folds) {
    static_assert(kTageLanes == 16);
    const auto leavingBit = [&](int i) -> std::uint32_t {
        return history[(head + lengths[i]) & historyMask];
    };
    // Built straight in vector registers: written to memory as bytes and reloaded as a vector,
    // they stalled on store forwarding.
    const Lanes leaving[2] = {
        Lanes{} - Lanes{leavingBit(0), leavingBit(1), leavingBit(2), leavingBit(3), leavingBit(4),
                        leavingBit(5), leavingBit(6), leavingBit(7)},
        Lanes{} - Lanes{leavingBit(8), leavingBit(9), leavingBit(10), leavingBit(11),
                        leavingBit(12), leavingBit(13), leavingBit(14), leavingBit(15)}};
    for (int fold = 0; fold < 3; ++fold) {
        for (int half = 0; half < 2; ++half) {
            const int i = 8 * half;
            Lanes v, outBit, top;
            std::memcpy(&v, folds.values[fold] + i, sizeof v);
            std::memcpy(&outBit, folds.outBits[fold] + i, sizeof outBit);
            std::memcpy(&top, folds.tops[fold] + i, sizeof top);
            v = ((v << 1) | in) ^ (leaving[half] & outBit);
            v ^= reinterpret_cast<Lanes>((v & top) != 0) & 1u;
            v &= top - 1u;
            std::memcpy(folds.values[fold] + i, &v, sizeof v);
        }
    }
}

} // namespace

#if defined(__x86_64__)
#define CONCORDE_AVX2_CLONE [[gnu::target_clones("avx2", "default")]]
#else
#define CONCORDE_AVX2_CLONE
#endif

CONCORDE_AVX2_CLONE
void hashTageTables(const TageHashLanes& lanes, std::uint32_t logSize, std::uint32_t pIndex,
                    std::uint32_t pTag, std::uint32_t pathBits, std::uint32_t* indices,
                    std::uint32_t* tags) {
    hashBody(lanes, logSize, pIndex, pTag, pathBits, indices, tags);
}

void hashTageTablesPortable(const TageHashLanes& lanes, std::uint32_t logSize, std::uint32_t pIndex,
                            std::uint32_t pTag, std::uint32_t pathBits, std::uint32_t* indices,
                            std::uint32_t* tags) {
    hashBody(lanes, logSize, pIndex, pTag, pathBits, indices, tags);
}

CONCORDE_AVX2_CLONE
void pushTageFolds(const std::uint8_t* history, unsigned head, unsigned historyMask,
                   const std::uint16_t* lengths, std::uint32_t in, const TageFoldLanes& folds) {
    pushBody(history, head, historyMask, lengths, in, folds);
}

void pushTageFoldsPortable(const std::uint8_t* history, unsigned head, unsigned historyMask,
                           const std::uint16_t* lengths, std::uint32_t in,
                           const TageFoldLanes& folds) {
    pushBody(history, head, historyMask, lengths, in, folds);
}

} // namespace concorde
