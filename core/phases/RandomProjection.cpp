#include "phases/RandomProjection.h"

#include "common/ConcordeError.h"
#include "common/SplitMix64.h"

#include <algorithm>

namespace concorde {

RandomProjection::RandomProjection(std::size_t dimensions, std::uint64_t seed)
    : dimensions_(dimensions), seed_(seed) {
    if (dimensions_ == 0)
        throw usageError("a random projection needs at least one dimension");
}

double RandomProjection::coefficient(std::uint64_t pc, std::size_t dimension) const {
    return 2.0 * SplitMix64::unit(SplitMix64::hash(seed_, pc, dimension)) - 1.0;
}

std::vector<double> RandomProjection::project(const BasicBlockVector& bbv) const {
    BasicBlockVector sorted = bbv;
    std::sort(sorted.begin(), sorted.end());
    // 128-bit total: counts of a long region cannot overflow it.
    unsigned __int128 total = 0;
    for (const auto& entry : sorted)
        total += entry.second;
    if (total == 0)
        throw badInput("a basic-block vector with no executed instructions cannot be projected");
    std::vector<double> projected(dimensions_, 0.0);
    const double scale = 1.0 / static_cast<double>(total);
    for (std::size_t i = 0; i < sorted.size();) {
        const std::uint64_t pc = sorted[i].first;
        std::uint64_t count = 0;
        for (; i < sorted.size() && sorted[i].first == pc; ++i)
            count += sorted[i].second;
        if (count == 0)
            continue;
        const double share = static_cast<double>(count) * scale;
        for (std::size_t d = 0; d < dimensions_; ++d)
            projected[d] += share * coefficient(pc, d);
    }
    return projected;
}

} // namespace concorde
