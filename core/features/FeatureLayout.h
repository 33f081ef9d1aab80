#pragma once

#include "features/BlockCombinations.h"
#include "features/DistributionEncoder.h"
#include "features/FeatureBlock.h"
#include "features/ParameterGrid.h"

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace concorde {

class CoreConfig;

/// The layout of a feature vector (docs/design.md §8): a concatenation of named blocks, each
/// depending on a few parameters. The ML model's first layer is a sum over blocks, so a later stage
/// precomputes W1_block · x_block for every combination of a block's parameters (BlockCombinations)
/// and a CPI evaluation becomes a sum of one precomputed row per block.
///
/// The standard layout (standard(K)), in this order. E = 2K + 1 is one DistributionEncoder
/// encoding (21 for K = 10); "mem" = l1d_kb, l1i_kb, l2_kb, pf_degree; caps in brackets.
///
/// Resource blocks: one series each (named like the block), the per-window IPC bound [64],
/// each followed by its reciprocal mean (the region's CPI under that resource alone), so a
/// resource block is E + 1 wide:
/// - rob            E   rob, mem
/// - lq             E   lq, mem
/// - sq             E   sq                     (stores take their class latency only)
/// - alu_issue      E   alu_issue
/// - fp_issue       E   fp_issue
/// - ls_issue       E   ls_issue
/// - pipes_lower    E   ls_pipes, load_pipes   (w / time of the worst pipe allocation)
/// - pipes_upper    E   ls_pipes, load_pipes   (w / time of the best pipe allocation)
/// - icache_fills   E   icache_fills, mem
/// - fetch_buffers  E   fetch_buffers, mem
/// - fetch_width    E   fetch_width
/// Auxiliary blocks:
/// - aux.fences              E    (none)           fences per 1000 instructions per window [1000]
/// - aux.branches            5 E  (none)           per 1000 instructions per window, series
///                                                 direct-uncond, direct-cond, indirect, call,
///                                                 return (BranchKind order) [1000]
/// - aux.mispredict          E    bp, bp_miss_pct  mispredictions per 1000 instructions per
///                                                 window with the configured predictor [1000]
/// - aux.rob_sizes           6    mem              scalars rob_16 … rob_512: region IPC of the
///                                                 ROB model at each of auxRobSizes()
/// - aux.latency_issue_wait  E    rob, mem         issue-wait latency, cycles [4096]
/// - aux.latency_execution   E    rob, mem         execution latency, cycles [4096]
/// - aux.latency_commit_wait E    rob, mem         commit-wait latency, cycles [4096]
/// Parameter blocks, one per parameter in ParamId order, each depending on that parameter only:
/// - param.<key>    1   the normalised value (19 numeric parameters)
/// - param.bp       2   one-hot, columns simple, tage
///
/// Total width: 21 E + 11 + 6 + 21 = 21 E + 38, i.e. 479 for K = 10.
///
/// Why every memory-dependent block depends on all four memory parameters, l1i_kb included: the
/// L2 and LLC are shared by instruction fetches and data (CacheHierarchy), so the L1i size changes
/// which data lines hit in L2, and the L1d size and prefetcher change which instruction lines do.
/// The block precomputation is only exact if a block's parameters determine its contents.
///
/// Auxiliary counts are distribution-encoded rather than mean-only: blocks without parameters
/// are computed once per region and cost nothing per evaluation, and their burstiness (e.g.
/// windows dense in branches or fences) is what the mean hides.
///
/// Parameter normalisation maps the accepted range [min, max] of ParameterSpace onto [0, 1]:
/// log2 scale for capacities (rob, lq, sq, fetch_buffers, icache_fills, l1d_kb, l1i_kb, l2_kb),
/// whose grids are geometric and whose effect on performance is roughly logarithmic, so that the
/// grid points are evenly spread; linear for widths, pipe counts, bp_miss_pct and pf_degree
/// (several of which include 0, where log2 is undefined); one-hot for bp. The scale and range
/// are stored in each parameter block, so a saved layout keeps its meaning.
class FeatureLayout {
public:
    static constexpr int kFormatVersion = 1;
    static constexpr float kThroughputCap = DistributionEncoder::kDefaultCap;
    static constexpr float kCountCap = 1000.0f;   ///< events per 1000 instructions
    static constexpr float kLatencyCap = 4096.0f; ///< cycles

    /// The standard layout described above, with K percentiles per distribution.
    static FeatureLayout standard(int percentiles = DistributionEncoder::kDefaultPercentiles);
    /// ROB sizes of the aux.rob_sizes block, in column order.
    static std::vector<int> auxRobSizes();
    /// The memory parameters (the MemoryConfig fields), in ParamId order.
    static std::vector<ParamId> memoryParams();

    /// Lays `blocks` out contiguously in the given order: each block's offset and width are
    /// (re)computed from its kind, columns and K. Throws a bad-input ConcordeError for a
    /// malformed block (empty or duplicate name, no columns, duplicate parameter, a parameter
    /// block whose scale, range or columns do not fit its parameter, a non-positive cap).
    FeatureLayout(int percentiles, std::vector<FeatureBlock> blocks);

    int percentiles() const { return percentiles_; }
    /// Total number of features.
    std::size_t width() const { return width_; }
    const std::vector<FeatureBlock>& blocks() const { return blocks_; }

    /// The block called `name`, or nullptr.
    const FeatureBlock* find(std::string_view name) const;
    /// The block called `name`; a usage error listing the block names if there is none.
    const FeatureBlock& block(std::string_view name) const;
    std::size_t blockIndex(std::string_view name) const;
    /// The parameters block `name` depends on.
    const std::vector<ParamId>& dependencies(std::string_view name) const;
    /// The blocks whose contents change with parameter `id`, in layout order.
    std::vector<const FeatureBlock*> blocksDependingOn(ParamId id) const;
    /// The combinations of block `name`'s parameters over `grid`.
    BlockCombinations combinations(std::string_view name, const ParameterGrid& grid = {}) const;

    /// The encoder for a Distributions block (K and the block's cap).
    DistributionEncoder encoder(const FeatureBlock& block) const;
    /// Block `name`'s slice of a full feature vector (usage error if `features` is not width()).
    std::span<float> slice(std::span<float> features, std::string_view name) const;
    std::span<const float> slice(std::span<const float> features, std::string_view name) const;
    /// Encodes one series as one column of a Distributions block: the encoder's 2K + 1 floats,
    /// then the reciprocal mean if the block has one. `out` is the column's slice.
    void encodeColumn(const FeatureBlock& block, std::span<const float> series,
                      std::span<float> out) const;
    /// Encodes one series into its place: block `name`, column `column`.
    void encodeSeries(std::string_view name, std::string_view column, std::span<const float> series,
                      std::span<float> features) const;
    /// Writes every Parameter block of `features` from `config`.
    void encodeParameters(const CoreConfig& config, std::span<float> features) const;
    /// Just the normalised parameter vector: the Parameter blocks' columns concatenated in
    /// layout order (21 floats for the standard layout).
    std::vector<float> normalisedParameters(const CoreConfig& config) const;

    /// {"format": "concorde-feature-layout", "version", "percentiles", "width", "blocks": [...]}.
    nlohmann::json toJson() const;
    /// Reads and validates toJson()'s format; offsets and widths in the file must match the
    /// recomputed ones. Errors are bad-input ConcordeErrors naming `context` and the block.
    static FeatureLayout fromJson(const nlohmann::json& json, const std::string& context);

    bool operator==(const FeatureLayout&) const = default;

private:
    int percentiles_;
    std::vector<FeatureBlock> blocks_;
    std::size_t width_ = 0;
};

} // namespace concorde
