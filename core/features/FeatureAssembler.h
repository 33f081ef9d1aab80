#pragma once

#include "features/FeatureLayout.h"
#include "features/SeriesKey.h"

#include <span>
#include <vector>

namespace concorde {

class CoreConfig;
class SeriesSource;

/// Builds feature vectors (FeatureLayout) for one region and one configuration from the region's
/// precomputed series (GridBounds naming). This is the one place that maps a layout block and
/// column to the series that feeds it, so training (datasets) and inference (predict, the GUI)
/// cannot disagree:
///
///   rob, lq, sq, alu_issue, fp_issue, ls_issue, icache_fills, fetch_buffers, fetch_width
///                           → the series of the same name at the block's parameter values
///   pipes_lower / pipes_upper → "pipes_lower" / "pipes" (worst / best pipe allocation)
///   aux.fences              → "fences_pki"
///   aux.branches, column k  → "branches_pki.<k>"
///   aux.mispredict          → "mispredicts_pki" at bp (and bp_miss_pct for the simple predictor)
///   aux.rob_sizes, rob_N    → the one-value series "rob_N" (region IPC of an N-entry ROB)
///   aux.latency_<c>         → "rob.<c>" at the configured ROB size
///   param.*                 → the configuration itself
///
/// A block's memory parameters select the memory configuration; its other parameters become the
/// series' settings.
class FeatureAssembler {
public:
    explicit FeatureAssembler(FeatureLayout layout) : layout_(std::move(layout)) {}

    const FeatureLayout& layout() const { return layout_; }

    /// The series feeding column `column` of `block` for `config` (Distributions and Scalars
    /// blocks only; a usage error for a Parameter block).
    static SeriesKey keyFor(const FeatureBlock& block, std::size_t column,
                            const CoreConfig& config);

    /// Writes block `block`'s raw (un-normalised) features for `config` into `out` (its width).
    void assembleBlock(const FeatureBlock& block, const CoreConfig& config,
                       const SeriesSource& source, std::span<float> out) const;
    /// The whole raw feature vector for `config`.
    void assemble(const CoreConfig& config, const SeriesSource& source, std::span<float> out) const;
    std::vector<float> assemble(const CoreConfig& config, const SeriesSource& source) const;

    /// The resource blocks whose per-window series are IPC upper bounds (pipes: the best
    /// allocation), in layout order.
    static const std::vector<std::string>& resourceBlocks();
    /// The analytical baseline without ML: per window the smallest resource bound, and
    /// CPI = the mean over windows of 1 / that bound (windows weigh equally; only the last may be
    /// short). Needs the layout's resource blocks.
    double minimumBoundCpi(const CoreConfig& config, const SeriesSource& source) const;

private:
    FeatureLayout layout_;
};

} // namespace concorde
