#include "trace/synthetic/KernelRandom.h"

#include <numeric>
#include <utility>

namespace concorde::synthetic {

std::uint64_t KernelRandom::below(std::uint64_t bound) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(engine_()) * bound) >> 64);
}

std::vector<std::uint32_t> KernelRandom::permutation(std::uint32_t n) {
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    for (std::uint32_t i = n; i > 1; --i)
        std::swap(order[i - 1], order[below(i)]);
    return order;
}

} // namespace concorde::synthetic
