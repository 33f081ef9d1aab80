#include "analysis/TageLanes.h"

#include <cstddef>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace concorde {

namespace {

// The portable lane arithmetic, one lane at a time; every portable entry point is built from
// these two.

/// Table i's index and tag from folds f0, f1, f2.
inline void hashLane(const TageLanes& l, int i, std::uint32_t pIndex, std::uint32_t pTag,
                     std::uint32_t pathBits, std::uint32_t f0, std::uint32_t f1, std::uint32_t f2,
                     TageLookup& lookup) {
    // A rotation by 0 leaves the path as it is (path < 2^logSize, so path >> logSize = 0).
    std::uint32_t path = pathBits & l.pathMask[i];
    path = (path ^ (path >> l.logSize)) & l.indexMask[i];
    path = ((path << l.rotate[i]) | (path >> l.rotateBack[i])) & l.indexMask[i];
    lookup.indices[i] = (pIndex ^ (pIndex >> l.indexShift[i]) ^ f0 ^ path) & l.indexMask[i];
    lookup.tags[i] = (pTag ^ (pTag >> l.tagShift[i]) ^ f1 ^ (f2 << 1)) & l.tagMask[i];
}

/// Table i's fold k after the outcome `in` entered and the bit `leaving` left its history.
inline std::uint32_t pushLane(const TageLanes& l, int k, int i, std::uint32_t fold, bool leaving,
                              std::uint32_t in) {
    std::uint32_t v = ((fold << 1) | in) ^ (leaving ? l.outBit[k][i] : 0);
    v ^= v >> l.width[k][i]; // v < 2^(width + 1): the top bit wraps into bit 0
    return v & l.foldMask[k][i];
}

} // namespace

void hashTageTablesPortable(const TageLanes& lanes, std::uint32_t pIndex, std::uint32_t pTag,
                            std::uint32_t pathBits, TageLookup& lookup) {
    for (int i = 0; i < kTageLanes; ++i)
        hashLane(lanes, i, pIndex, pTag, pathBits, lanes.fold[0][i], lanes.fold[1][i],
                 lanes.fold[2][i], lookup);
}

std::uint32_t matchTageTablesPortable(const TageLanes& lanes, const std::uint16_t* tableTags,
                                      const TageLookup& lookup) {
    std::uint32_t hits = 0;
    for (int i = 0; i < kTageLanes; ++i)
        hits |= static_cast<std::uint32_t>(tableTags[lanes.tableBase[i] + lookup.indices[i]] ==
                                           lookup.tags[i])
                << i;
    return hits & lanes.usedTables;
}

void pushTageFoldsPortable(TageLanes& lanes, const std::uint8_t* history, unsigned head,
                           unsigned historyMask, std::uint32_t in) {
    for (int i = 0; i < kTageLanes; ++i) {
        const bool leaving = history[(head + lanes.length[i]) & historyMask] & 1u;
        for (int k = 0; k < 3; ++k)
            lanes.fold[k][i] = pushLane(lanes, k, i, lanes.fold[k][i], leaving, in);
    }
}

void hashAndPushTageRunPortable(TageLanes& lanes, const TageBranchHash* branches, int count,
                                std::uint32_t outcomes, const std::uint32_t* leaving,
                                TageLookup* lookups) {
    for (int j = 0; j < count; ++j) {
        const TageBranchHash& b = branches[j];
        hashTageTablesPortable(lanes, b.pIndex, b.pTag, b.pathBits, lookups[j]);
        const std::uint32_t in = (outcomes >> j) & 1u;
        for (int i = 0; i < kTageLanes; ++i)
            for (int k = 0; k < 3; ++k)
                lanes.fold[k][i] =
                    pushLane(lanes, k, i, lanes.fold[k][i], (leaving[i] >> j) & 1u, in);
    }
}

std::uint32_t historyBitsBackwardsPortable(const std::uint8_t* history, unsigned historyMask,
                                           unsigned at, int count) {
    std::uint32_t bits = 0;
    for (int j = 0; j < count; ++j)
        bits |=
            static_cast<std::uint32_t>(history[(at - static_cast<unsigned>(j)) & historyMask] & 1u)
            << j;
    return bits;
}

#if defined(__x86_64__)

namespace {

// Straight-line AVX2: two vectors of eight lanes. The lane arrays are loaded at fixed offsets
// from one pointer, every result stored once at the end of its lane's work, so the compiler
// keeps the whole update in registers. Every AVX2 entry point is built from hashHalf and
// pushHalf.

[[gnu::target("avx2"), gnu::always_inline]] inline __m256i load(const std::uint32_t* p) {
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
}

/// Lanes h..h+7 of hashLane, the folds given.
[[gnu::target("avx2"), gnu::always_inline]] inline void hashHalf(const TageLanes& l, int h,
                                                                 const TageBranchHash& b,
                                                                 __m256i f0, __m256i f1, __m256i f2,
                                                                 TageLookup& lookup) {
    const __m128i logSize = _mm_cvtsi32_si128(static_cast<int>(l.logSize));
    const __m256i pI = _mm256_set1_epi32(static_cast<int>(b.pIndex));
    const __m256i pT = _mm256_set1_epi32(static_cast<int>(b.pTag));
    const __m256i indexMask = load(l.indexMask + h);
    __m256i path =
        _mm256_and_si256(_mm256_set1_epi32(static_cast<int>(b.pathBits)), load(l.pathMask + h));
    path = _mm256_and_si256(_mm256_xor_si256(path, _mm256_srl_epi32(path, logSize)), indexMask);
    path = _mm256_and_si256(_mm256_or_si256(_mm256_sllv_epi32(path, load(l.rotate + h)),
                                            _mm256_srlv_epi32(path, load(l.rotateBack + h))),
                            indexMask);
    __m256i index = _mm256_xor_si256(pI, _mm256_srlv_epi32(pI, load(l.indexShift + h)));
    index = _mm256_and_si256(_mm256_xor_si256(_mm256_xor_si256(index, f0), path), indexMask);
    __m256i tag = _mm256_xor_si256(pT, _mm256_srlv_epi32(pT, load(l.tagShift + h)));
    tag = _mm256_xor_si256(_mm256_xor_si256(tag, f1), _mm256_slli_epi32(f2, 1));
    tag = _mm256_and_si256(tag, load(l.tagMask + h));
    _mm256_store_si256(reinterpret_cast<__m256i*>(lookup.indices + h), index);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lookup.tags + h), tag);
}

/// Lanes h..h+7 of pushLane for all three folds; `leaving` is all ones in a lane whose bit
/// leaves, `inBit` the outcome in every lane.
[[gnu::target("avx2"), gnu::always_inline]] inline void
pushHalf(const TageLanes& l, int h, __m256i (&folds)[3], __m256i leaving, __m256i inBit) {
#pragma GCC unroll 3
    for (int k = 0; k < 3; ++k) {
        __m256i v = _mm256_or_si256(_mm256_slli_epi32(folds[k], 1), inBit);
        v = _mm256_xor_si256(v, _mm256_and_si256(leaving, load(l.outBit[k] + h)));
        v = _mm256_xor_si256(v, _mm256_srlv_epi32(v, load(l.width[k] + h)));
        folds[k] = _mm256_and_si256(v, load(l.foldMask[k] + h));
    }
}

[[gnu::target("avx2")]] void hashAvx2(const TageLanes& l, std::uint32_t pIndex, std::uint32_t pTag,
                                      std::uint32_t pathBits, TageLookup& lookup) {
    const TageBranchHash b{pIndex, pTag, pathBits};
#pragma GCC unroll 2
    for (int h = 0; h < kTageLanes; h += 8)
        hashHalf(l, h, b, load(l.fold[0] + h), load(l.fold[1] + h), load(l.fold[2] + h), lookup);
}

[[gnu::target("avx2")]] std::uint32_t matchAvx2(const TageLanes& l, const std::uint16_t* tableTags,
                                                const TageLookup& lookup) {
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    std::uint32_t hits = 0;
#pragma GCC unroll 2
    for (int h = 0; h < kTageLanes; h += 8) {
        // The tags are 16 bits: read in pairs (the padding covers the last) and masked.
        const __m256i slot = _mm256_add_epi32(load(l.tableBase + h), load(lookup.indices + h));
        const __m256i stored = _mm256_and_si256(
            _mm256_i32gather_epi32(reinterpret_cast<const int*>(tableTags), slot, 2), low16);
        const __m256i hit = _mm256_cmpeq_epi32(stored, load(lookup.tags + h));
        hits |= static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(hit))) << h;
    }
    return hits & l.usedTables;
}

[[gnu::target("avx2")]] void pushAvx2(TageLanes& l, const std::uint8_t* history, unsigned head,
                                      unsigned historyMask, std::uint32_t in) {
    const __m256i at0 = _mm256_set1_epi32(static_cast<int>(head));
    const __m256i mask = _mm256_set1_epi32(static_cast<int>(historyMask));
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i inBit = _mm256_set1_epi32(static_cast<int>(in));
#pragma GCC unroll 2
    for (int h = 0; h < kTageLanes; h += 8) {
        // Each lane reads the four bytes from its leaving bit on (hence the padding).
        const __m256i at = _mm256_and_si256(_mm256_add_epi32(at0, load(l.length + h)), mask);
        const __m256i leaving = _mm256_sub_epi32(
            _mm256_setzero_si256(),
            _mm256_and_si256(_mm256_i32gather_epi32(reinterpret_cast<const int*>(history), at, 1),
                             one));
        __m256i folds[3] = {load(l.fold[0] + h), load(l.fold[1] + h), load(l.fold[2] + h)};
        pushHalf(l, h, folds, leaving, inBit);
        for (int k = 0; k < 3; ++k)
            _mm256_store_si256(reinterpret_cast<__m256i*>(l.fold[k] + h), folds[k]);
    }
}

[[gnu::target("avx2")]] void hashAndPushRunAvx2(TageLanes& l, const TageBranchHash* branches,
                                                int count, std::uint32_t outcomes,
                                                const std::uint32_t* leaving, TageLookup* lookups) {
    const __m256i one = _mm256_set1_epi32(1);
    __m256i low[3] = {load(l.fold[0]), load(l.fold[1]), load(l.fold[2])};
    __m256i high[3] = {load(l.fold[0] + 8), load(l.fold[1] + 8), load(l.fold[2] + 8)};
    const __m256i leavingLow = load(leaving);
    const __m256i leavingHigh = load(leaving + 8);
    for (int j = 0; j < count; ++j) {
        hashHalf(l, 0, branches[j], low[0], low[1], low[2], lookups[j]);
        hashHalf(l, 8, branches[j], high[0], high[1], high[2], lookups[j]);
        const __m128i shift = _mm_cvtsi32_si128(j);
        const __m256i inBit = _mm256_set1_epi32(static_cast<int>((outcomes >> j) & 1u));
        const __m256i zero = _mm256_setzero_si256();
        pushHalf(l, 0, low,
                 _mm256_sub_epi32(zero, _mm256_and_si256(_mm256_srl_epi32(leavingLow, shift), one)),
                 inBit);
        pushHalf(
            l, 8, high,
            _mm256_sub_epi32(zero, _mm256_and_si256(_mm256_srl_epi32(leavingHigh, shift), one)),
            inBit);
    }
    for (int k = 0; k < 3; ++k) {
        _mm256_store_si256(reinterpret_cast<__m256i*>(l.fold[k]), low[k]);
        _mm256_store_si256(reinterpret_cast<__m256i*>(l.fold[k] + 8), high[k]);
    }
}

[[gnu::target("avx2")]] std::uint32_t
historyBitsAvx2(const std::uint8_t* history, unsigned historyMask, unsigned at, int count) {
    const unsigned last = at & historyMask;
    if (last < 31 || count <= 0) // the 32 bytes would wrap around the buffer
        return historyBitsBackwardsPortable(history, historyMask, at, count);
    // The 32 bytes ending at `last`, reversed (within each half, then the halves swapped), so
    // that byte j is history[last - j]; bit 0 of each byte to its top bit, then one bit each.
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(history + last - 31));
    const __m256i reverse = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                                             15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    v = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, reverse), 0x4E);
    const auto bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_slli_epi16(v, 7)));
    return count >= 32 ? bits : bits & ((1u << count) - 1);
}

const bool kHaveAvx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
}();

} // namespace

#endif

void hashTageTables(const TageLanes& lanes, std::uint32_t pIndex, std::uint32_t pTag,
                    std::uint32_t pathBits, TageLookup& lookup) {
#if defined(__x86_64__)
    if (kHaveAvx2)
        return hashAvx2(lanes, pIndex, pTag, pathBits, lookup);
#endif
    hashTageTablesPortable(lanes, pIndex, pTag, pathBits, lookup);
}

std::uint32_t matchTageTables(const TageLanes& lanes, const std::uint16_t* tableTags,
                              const TageLookup& lookup) {
#if defined(__x86_64__)
    if (kHaveAvx2)
        return matchAvx2(lanes, tableTags, lookup);
#endif
    return matchTageTablesPortable(lanes, tableTags, lookup);
}

void pushTageFolds(TageLanes& lanes, const std::uint8_t* history, unsigned head,
                   unsigned historyMask, std::uint32_t in) {
#if defined(__x86_64__)
    if (kHaveAvx2)
        return pushAvx2(lanes, history, head, historyMask, in);
#endif
    pushTageFoldsPortable(lanes, history, head, historyMask, in);
}

std::uint32_t historyBitsBackwards(const std::uint8_t* history, unsigned historyMask, unsigned at,
                                   int count) {
#if defined(__x86_64__)
    if (kHaveAvx2)
        return historyBitsAvx2(history, historyMask, at, count);
#endif
    return historyBitsBackwardsPortable(history, historyMask, at, count);
}

void hashAndPushTageRun(TageLanes& lanes, const TageBranchHash* branches, int count,
                        std::uint32_t outcomes, const std::uint32_t* leaving, TageLookup* lookups) {
#if defined(__x86_64__)
    if (kHaveAvx2)
        return hashAndPushRunAvx2(lanes, branches, count, outcomes, leaving, lookups);
#endif
    hashAndPushTageRunPortable(lanes, branches, count, outcomes, leaving, lookups);
}

} // namespace concorde
