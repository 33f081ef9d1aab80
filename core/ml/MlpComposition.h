#pragma once

#include "features/FeatureLayout.h"

#include <cstdint>
#include <vector>

namespace concorde {

/// The structure of a composed network (Mlp::makeComposed; docs/design.md §8, issue 17 item 5).
///
/// The inputs are partitioned into groups: the feature blocks that share one table of the block
/// precomputation (BlockHosts), i.e. that depend on the same few parameters, plus one group of
/// the blocks that do not change with the configuration. Each group has its own small
/// sub-network (`unitsPerGroup` ReLU units, then `outputsPerGroup` linear outputs)
/// that sees only its group's inputs, and may combine them with any signs: a resource's bound
/// distribution against its own parameter, percentiles against the mean. A monotone network on
/// top (non-negative weights, alternating convex and concave units) combines the groups'
/// outputs; it may only rise with the outputs of a group that changes with the configuration.
///
/// Monotonicity then rests on each such group output falling (or staying) when the core grows
/// in any of its group's parameters. The precomputation enforces that on the lattice of the
/// group's parameters with the monotone envelope (MonotoneEnvelope), so every prediction the
/// explorer makes is monotone by construction, while the groups still compute what a
/// sign-constrained first layer cannot: which part of a resource's distribution binds.
struct MlpComposition {
    /// The group of each input.
    std::vector<std::uint16_t> inputGroup;
    /// Per group: its inputs change with the configuration (its outputs are then constrained).
    std::vector<bool> groupVaries;
    int unitsPerGroup = 12;
    int outputsPerGroup = 4;

    std::size_t groups() const { return groupVaries.size(); }
    bool empty() const { return inputGroup.empty(); }
    /// Throws a bad-input ConcordeError if the parts disagree (a group without inputs, an input
    /// in no group, non-positive sizes).
    void check() const;

    /// The grouping of `layout`: one group per BlockHosts host (the host's and its members'
    /// features), then one for the blocks without parameters, if any.
    static MlpComposition forLayout(const FeatureLayout& layout, int unitsPerGroup,
                                    int outputsPerGroup);

    bool operator==(const MlpComposition&) const = default;
};

} // namespace concorde
