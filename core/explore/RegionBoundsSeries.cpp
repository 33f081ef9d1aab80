#include "explore/RegionBoundsSeries.h"

#include "common/ConcordeError.h"
#include "explore/BoundResources.h"
#include "features/SeriesSource.h"
#include "params/CoreConfig.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace concorde {
namespace {

/// The floor FeatureLayout::encodeColumn and FeatureAssembler::minimumBoundCpi use.
constexpr float kIpcFloor = 1e-3f;

double meanReciprocal(std::span<const float> values) {
    if (values.empty())
        return 0;
    double cycles = 0;
    for (const float ipc : values)
        cycles += 1.0 / std::max(ipc, kIpcFloor);
    return cycles / static_cast<double>(values.size());
}

} // namespace

RegionBoundsSeries RegionBoundsSeries::compute(const SeriesSource& source, const CoreConfig& config,
                                               std::string label) {
    std::vector<std::vector<float>> bounds;
    bounds.reserve(BoundResources::count());
    for (std::size_t r = 0; r < BoundResources::count(); ++r) {
        const SeriesKey key = BoundResources::key(r, config);
        const auto values = source.series(key);
        if (!bounds.empty() && values.size() != bounds.front().size())
            throw badInput("series " + key.text() + " has " + std::to_string(values.size()) +
                           " windows, expected " + std::to_string(bounds.front().size()));
        bounds.emplace_back(values.begin(), values.end());
    }
    return fromBounds(std::move(bounds), std::move(label));
}

RegionBoundsSeries RegionBoundsSeries::fromBounds(std::vector<std::vector<float>> bounds,
                                                  std::string label) {
    if (bounds.size() > 255)
        throw badInput("at most 255 resources, got " + std::to_string(bounds.size()));
    for (std::size_t r = 1; r < bounds.size(); ++r)
        if (bounds[r].size() != bounds[0].size())
            throw badInput("resource " + std::to_string(r) + " has " +
                           std::to_string(bounds[r].size()) + " windows, resource 0 has " +
                           std::to_string(bounds[0].size()));
    RegionBoundsSeries result;
    result.label_ = std::move(label);
    result.bounds_ = std::move(bounds);
    result.segmentStarts_ = {0};
    result.segmentLabels_ = {result.label_};
    result.finish();
    return result;
}

RegionBoundsSeries RegionBoundsSeries::concatenate(std::span<const RegionBoundsSeries> parts,
                                                   std::string label) {
    RegionBoundsSeries result;
    result.label_ = std::move(label);
    if (parts.empty()) {
        result.finish();
        return result;
    }
    const std::size_t resources = parts.front().resourceCount();
    std::size_t total = 0;
    for (const auto& part : parts) {
        if (part.resourceCount() != resources)
            throw badInput("cannot join " + part.label() + " (" +
                           std::to_string(part.resourceCount()) + " resources) to " +
                           parts.front().label() + " (" + std::to_string(resources) + ")");
        total += part.windows();
    }
    result.bounds_.assign(resources, {});
    for (auto& row : result.bounds_)
        row.reserve(total);
    for (const auto& part : parts) {
        result.segmentStarts_.push_back(result.bounds_.empty() ? 0 : result.bounds_[0].size());
        result.segmentLabels_.push_back(part.label());
        for (std::size_t r = 0; r < resources; ++r)
            result.bounds_[r].insert(result.bounds_[r].end(), part.bounds_[r].begin(),
                                     part.bounds_[r].end());
    }
    result.finish(parts);
    return result;
}

namespace {

/// The samples of several sorted distributions, merged into one sorted vector: pairwise
/// in-place merges of neighbouring runs, log2(runs) passes.
std::vector<float> mergeSorted(std::span<const RegionBoundsSeries> parts,
                               const std::function<const Cdf&(const RegionBoundsSeries&)>& cdfOf) {
    std::vector<float> merged;
    std::vector<std::size_t> runStarts;
    for (const auto& part : parts) {
        const auto& values = cdfOf(part).sortedValues();
        runStarts.push_back(merged.size());
        merged.insert(merged.end(), values.begin(), values.end());
    }
    runStarts.push_back(merged.size());
    for (std::size_t width = 1; width + 1 < runStarts.size(); width *= 2)
        for (std::size_t first = 0; first + width + 1 < runStarts.size(); first += 2 * width) {
            const std::size_t last = std::min(first + 2 * width, runStarts.size() - 1);
            std::inplace_merge(merged.begin() + std::ptrdiff_t(runStarts[first]),
                               merged.begin() + std::ptrdiff_t(runStarts[first + width]),
                               merged.begin() + std::ptrdiff_t(runStarts[last]));
        }
    return merged;
}

} // namespace

void RegionBoundsSeries::finish(std::span<const RegionBoundsSeries> sortedParts) {
    const std::size_t resources = bounds_.size();
    const std::size_t n = resources == 0 ? 0 : bounds_[0].size();
    minimum_.assign(n, 0.0f);
    binding_.assign(n, 0);
    bindingCount_.assign(resources, 0);
    for (std::size_t w = 0; w < n; ++w) {
        std::size_t best = 0;
        for (std::size_t r = 1; r < resources; ++r)
            if (bounds_[r][w] < bounds_[best][w])
                best = r;
        minimum_[w] = bounds_[best][w];
        binding_[w] = static_cast<std::uint8_t>(best);
        ++bindingCount_[best];
    }
    cdfs_.clear();
    cdfs_.reserve(resources);
    resourceCpi_.clear();
    for (std::size_t r = 0; r < resources; ++r) {
        cdfs_.push_back(sortedParts.empty() ? Cdf::fromValues(bounds_[r])
                                            : Cdf::fromSorted(mergeSorted(
                                                  sortedParts, [r](const auto& part) -> const Cdf& {
                                                      return part.cdf(r);
                                                  })));
        resourceCpi_.push_back(meanReciprocal(bounds_[r]));
    }
    minimumCdf_ =
        sortedParts.empty()
            ? Cdf::fromValues(minimum_)
            : Cdf::fromSorted(mergeSorted(
                  sortedParts, [](const auto& part) -> const Cdf& { return part.minimumCdf(); }));
    minimumCpi_ = meanReciprocal(minimum_);
    dominant_ = 0;
    for (std::size_t r = 1; r < resources; ++r) {
        const bool more = bindingCount_[r] > bindingCount_[dominant_];
        const bool tieWorse = bindingCount_[r] == bindingCount_[dominant_] &&
                              resourceCpi_[r] > resourceCpi_[dominant_];
        if (more || tieWorse)
            dominant_ = r;
    }
    if (segmentStarts_.empty()) {
        segmentStarts_ = {0};
        segmentLabels_ = {label_};
    }
}

std::span<const float> RegionBoundsSeries::bound(std::size_t resource) const {
    if (resource >= bounds_.size())
        throw usageError("no resource " + std::to_string(resource) + " in " + label_);
    return bounds_[resource];
}

std::size_t RegionBoundsSeries::bindingCount(std::size_t resource) const {
    if (resource >= bindingCount_.size())
        throw usageError("no resource " + std::to_string(resource) + " in " + label_);
    return bindingCount_[resource];
}

double RegionBoundsSeries::bindingShare(std::size_t resource) const {
    const std::size_t count = bindingCount(resource);
    return windows() == 0 ? 0.0 : static_cast<double>(count) / static_cast<double>(windows());
}

const Cdf& RegionBoundsSeries::cdf(std::size_t resource) const {
    if (resource >= cdfs_.size())
        throw usageError("no resource " + std::to_string(resource) + " in " + label_);
    return cdfs_[resource];
}

double RegionBoundsSeries::resourceCpi(std::size_t resource) const {
    if (resource >= resourceCpi_.size())
        throw usageError("no resource " + std::to_string(resource) + " in " + label_);
    return resourceCpi_[resource];
}

} // namespace concorde
