#include "attribution/PermutationSampler.h"

#include <numeric>
#include <utility>

namespace concorde {

namespace {

std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

} // namespace

void PermutationSampler::permutation(std::uint64_t index, std::span<std::uint32_t> out) const {
    std::iota(out.begin(), out.end(), 0u);
    // Seed and index are mixed separately so that neighbouring seeds do not share streams.
    std::uint64_t state = mix(seed_ ^ mix(index + 0x9e3779b97f4a7c15ULL));
    for (std::size_t i = out.size(); i > 1; --i) {
        state += 0x9e3779b97f4a7c15ULL;
        const std::uint64_t draw = mix(state);
        // Multiply-shift maps the draw onto [0, i); the bias is below 2^-59 for i ≤ 32.
        const auto j = static_cast<std::size_t>((static_cast<unsigned __int128>(draw) * i) >> 64);
        std::swap(out[i - 1], out[j]);
    }
}

} // namespace concorde
