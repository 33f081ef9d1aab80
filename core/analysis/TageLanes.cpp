#include "analysis/TageLanes.h"

#include <cstddef>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace concorde {

std::uint32_t lookupTageTablesPortable(const TageLanes& lanes, std::uint32_t pIndex,
                                       std::uint32_t pTag, std::uint32_t pathBits,
                                       const std::uint16_t* tableTags, std::uint32_t* indices,
                                       std::uint32_t* tags) {
    const TageLanes& l = lanes;
    std::uint32_t hits = 0;
    for (int i = 0; i < kTageLanes; ++i) {
        // A rotation by 0 leaves the path as it is (path < 2^logSize, so path >> logSize = 0).
        std::uint32_t path = pathBits & l.pathMask[i];
        path = (path ^ (path >> l.logSize)) & l.indexMask[i];
        path = ((path << l.rotate[i]) | (path >> l.rotateBack[i])) & l.indexMask[i];
        indices[i] = (pIndex ^ (pIndex >> l.indexShift[i]) ^ l.fold[0][i] ^ path) & l.indexMask[i];
        tags[i] =
            (pTag ^ (pTag >> l.tagShift[i]) ^ l.fold[1][i] ^ (l.fold[2][i] << 1)) & l.tagMask[i];
        hits |= static_cast<std::uint32_t>(tableTags[l.tableBase[i] + indices[i]] == tags[i]) << i;
    }
    return hits & l.usedTables;
}

void pushTageFoldsPortable(TageLanes& lanes, const std::uint8_t* history, unsigned head,
                           unsigned historyMask, std::uint32_t in) {
    for (int i = 0; i < kTageLanes; ++i) {
        const bool leaving = history[(head + lanes.length[i]) & historyMask] & 1u;
        for (int k = 0; k < 3; ++k) {
            std::uint32_t v = ((lanes.fold[k][i] << 1) | in) ^ (leaving ? lanes.outBit[k][i] : 0);
            v ^= v >> lanes.width[k][i]; // v < 2^(width + 1): the top bit wraps into bit 0
            lanes.fold[k][i] = v & lanes.foldMask[k][i];
        }
    }
}

#if defined(__x86_64__)

namespace {

// Straight-line AVX2: two vectors of eight lanes. The lane arrays are loaded at fixed offsets
// from one pointer, every result stored once at the end of its lane's work, so the compiler
// keeps the whole update in registers.

[[gnu::target("avx2"), gnu::always_inline]] inline __m256i load(const std::uint32_t* p) {
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
}

[[gnu::target("avx2")]] std::uint32_t lookupAvx2(const TageLanes& l, std::uint32_t pIndex,
                                                 std::uint32_t pTag, std::uint32_t pathBits,
                                                 const std::uint16_t* tableTags,
                                                 std::uint32_t* indices, std::uint32_t* tags) {
    const __m128i logSize = _mm_cvtsi32_si128(static_cast<int>(l.logSize));
    const __m256i pI = _mm256_set1_epi32(static_cast<int>(pIndex));
    const __m256i pT = _mm256_set1_epi32(static_cast<int>(pTag));
    const __m256i pathAll = _mm256_set1_epi32(static_cast<int>(pathBits));
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    std::uint32_t hits = 0;
#pragma GCC unroll 2
    for (int h = 0; h < kTageLanes; h += 8) {
        const __m256i indexMask = load(l.indexMask + h);
        __m256i path = _mm256_and_si256(pathAll, load(l.pathMask + h));
        path = _mm256_and_si256(_mm256_xor_si256(path, _mm256_srl_epi32(path, logSize)), indexMask);
        path = _mm256_and_si256(_mm256_or_si256(_mm256_sllv_epi32(path, load(l.rotate + h)),
                                                _mm256_srlv_epi32(path, load(l.rotateBack + h))),
                                indexMask);
        __m256i index = _mm256_xor_si256(pI, _mm256_srlv_epi32(pI, load(l.indexShift + h)));
        index = _mm256_and_si256(
            _mm256_xor_si256(_mm256_xor_si256(index, load(l.fold[0] + h)), path), indexMask);
        __m256i tag = _mm256_xor_si256(pT, _mm256_srlv_epi32(pT, load(l.tagShift + h)));
        tag = _mm256_xor_si256(_mm256_xor_si256(tag, load(l.fold[1] + h)),
                               _mm256_slli_epi32(load(l.fold[2] + h), 1));
        tag = _mm256_and_si256(tag, load(l.tagMask + h));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(indices + h), index);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(tags + h), tag);
        // The tags are 16 bits: read in pairs (the padding covers the last) and masked.
        const __m256i slot = _mm256_add_epi32(load(l.tableBase + h), index);
        const __m256i stored = _mm256_and_si256(
            _mm256_i32gather_epi32(reinterpret_cast<const int*>(tableTags), slot, 2), low16);
        const __m256i hit = _mm256_cmpeq_epi32(stored, tag);
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
    const __m256i zero = _mm256_setzero_si256();
#pragma GCC unroll 2
    for (int h = 0; h < kTageLanes; h += 8) {
        // Each lane reads the four bytes from its leaving bit on (hence the padding).
        const __m256i at = _mm256_and_si256(_mm256_add_epi32(at0, load(l.length + h)), mask);
        const __m256i leaving = _mm256_sub_epi32(
            zero, _mm256_and_si256(
                      _mm256_i32gather_epi32(reinterpret_cast<const int*>(history), at, 1), one));
#pragma GCC unroll 3
        for (int k = 0; k < 3; ++k) {
            __m256i v = _mm256_or_si256(_mm256_slli_epi32(load(l.fold[k] + h), 1), inBit);
            v = _mm256_xor_si256(v, _mm256_and_si256(leaving, load(l.outBit[k] + h)));
            v = _mm256_xor_si256(v, _mm256_srlv_epi32(v, load(l.width[k] + h)));
            v = _mm256_and_si256(v, load(l.foldMask[k] + h));
            _mm256_store_si256(reinterpret_cast<__m256i*>(l.fold[k] + h), v);
        }
    }
}

const bool kHaveAvx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
}();

} // namespace

#endif

std::uint32_t lookupTageTables(const TageLanes& lanes, std::uint32_t pIndex, std::uint32_t pTag,
                               std::uint32_t pathBits, const std::uint16_t* tableTags,
                               std::uint32_t* indices, std::uint32_t* tags) {
#if defined(__x86_64__)
    if (kHaveAvx2)
        return lookupAvx2(lanes, pIndex, pTag, pathBits, tableTags, indices, tags);
#endif
    return lookupTageTablesPortable(lanes, pIndex, pTag, pathBits, tableTags, indices, tags);
}

void pushTageFolds(TageLanes& lanes, const std::uint8_t* history, unsigned head,
                   unsigned historyMask, std::uint32_t in) {
#if defined(__x86_64__)
    if (kHaveAvx2)
        return pushAvx2(lanes, history, head, historyMask, in);
#endif
    pushTageFoldsPortable(lanes, history, head, historyMask, in);
}

} // namespace concorde
