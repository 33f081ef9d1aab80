#include "explore/RegionBoundsSeries.h"

#include "common/ConcordeError.h"
#include "explore/BoundResources.h"
#include "features/SeriesSource.h"
#include "params/CoreConfig.h"

#include <algorithm>
#include <cmath>
#include <tbb/parallel_for.h>

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
    std::vector<SortedPart> sorted;
    sorted.reserve(parts.size());
    for (const auto& part : parts) {
        SortedPart& s = sorted.emplace_back();
        s.label = part.label();
        for (std::size_t r = 0; r < part.resourceCount(); ++r) {
            s.bounds.push_back(part.bounds_[r]);
            s.sorted.push_back(part.cdfs_[r].sortedValues());
        }
    }
    RegionBoundsSeries result = join(sorted, std::move(label));
    result.sortedRuns_.clear(); // the parts' own samples, which need not outlive the result
    return result;
}

RegionBoundsSeries RegionBoundsSeries::join(std::span<const SortedPart> parts, std::string label,
                                            const RegionBoundsSeries* previous) {
    RegionBoundsSeries result;
    result.label_ = std::move(label);
    if (parts.empty()) {
        result.finish();
        return result;
    }
    const std::size_t resources = parts.front().bounds.size();
    if (resources > 255)
        throw badInput("at most 255 resources, got " + std::to_string(resources));
    std::size_t total = 0;
    for (const auto& part : parts) {
        if (part.bounds.size() != resources || part.sorted.size() != resources)
            throw badInput("cannot join " + part.label + " (" + std::to_string(part.bounds.size()) +
                           " resources) to " + parts.front().label + " (" +
                           std::to_string(resources) + ")");
        const std::size_t windows = resources == 0 ? 0 : part.bounds[0].size();
        for (std::size_t r = 0; r < resources; ++r)
            if (part.bounds[r].size() != windows || part.sorted[r].size() != windows)
                throw badInput(part.label + ": resource " + std::to_string(r) + " has " +
                               std::to_string(part.bounds[r].size()) + " windows (" +
                               std::to_string(part.sorted[r].size()) + " sorted), resource 0 has " +
                               std::to_string(windows));
        total += windows;
    }
    result.bounds_.assign(resources, {});
    for (auto& row : result.bounds_)
        row.reserve(total);
    for (const auto& part : parts) {
        result.segmentStarts_.push_back(resources == 0 ? 0 : result.bounds_[0].size());
        result.segmentLabels_.push_back(part.label);
        for (std::size_t r = 0; r < resources; ++r)
            result.bounds_[r].insert(result.bounds_[r].end(), part.bounds[r].begin(),
                                     part.bounds[r].end());
    }
    result.finish(parts, previous);
    return result;
}

namespace {

/// Resource `resource`'s sorted runs of the parts, merged into one sorted vector: each pass
/// merges neighbouring runs from one buffer into the other, log2(parts) passes.
std::vector<float> mergeRuns(std::span<const RegionBoundsSeries::SortedPart> parts,
                             std::size_t resource) {
    std::vector<float> from;
    std::vector<std::size_t> starts; // run k is [starts[k], starts[k + 1])
    for (const auto& part : parts) {
        starts.push_back(from.size());
        from.insert(from.end(), part.sorted[resource].begin(), part.sorted[resource].end());
    }
    starts.push_back(from.size());
    std::vector<float> to(starts.size() > 2 ? from.size() : 0);
    while (starts.size() > 2) {
        std::vector<std::size_t> next;
        for (std::size_t i = 0; i + 1 < starts.size(); i += 2) {
            const auto first = from.begin() + std::ptrdiff_t(starts[i]);
            const auto middle = from.begin() + std::ptrdiff_t(starts[i + 1]);
            const auto last =
                i + 2 < starts.size() ? from.begin() + std::ptrdiff_t(starts[i + 2]) : middle;
            std::merge(first, middle, middle, last, to.begin() + std::ptrdiff_t(starts[i]));
            next.push_back(starts[i]);
        }
        next.push_back(starts.back());
        from.swap(to);
        starts.swap(next);
    }
    return from;
}

} // namespace

void RegionBoundsSeries::finish(std::span<const SortedPart> sortedParts,
                                const RegionBoundsSeries* previous) {
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
    resourceCpi_.clear();
    for (std::size_t r = 0; r < resources; ++r)
        resourceCpi_.push_back(meanReciprocal(bounds_[r]));
    minimumCpi_ = meanReciprocal(minimum_);
    // The CDFs, each resource's and the minimum's, are independent: in parallel.
    cdfs_.assign(resources, Cdf{});
    sortedRuns_.assign(sortedParts.empty() ? 0 : resources, {});
    for (std::size_t r = 0; r < sortedRuns_.size(); ++r)
        for (const auto& part : sortedParts)
            sortedRuns_[r].push_back(part.sorted[r]);
    const auto sameRuns = [](std::span<const std::span<const float>> a,
                             std::span<const std::span<const float>> b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](auto x, auto y) {
            return x.data() == y.data() && x.size() == y.size();
        });
    };
    const auto cdfOf = [&](std::size_t r) {
        if (r == resources)
            minimumCdf_ = Cdf::fromValues(minimum_);
        else if (sortedParts.empty())
            cdfs_[r] = Cdf::fromValues(bounds_[r]);
        else if (previous && r < previous->sortedRuns_.size() &&
                 sameRuns(sortedRuns_[r], previous->sortedRuns_[r]))
            cdfs_[r] = previous->cdfs_[r];
        else
            cdfs_[r] = Cdf::fromSorted(mergeRuns(sortedParts, r));
    };
    if (n * resources < 4096) // one region of a test: not worth waking other threads
        for (std::size_t r = 0; r <= resources; ++r)
            cdfOf(r);
    else
        tbb::parallel_for(std::size_t(0), resources + 1, cdfOf);
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
