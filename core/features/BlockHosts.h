#pragma once

#include "params/ParameterSpec.h"

#include <vector>

namespace concorde {

/// Which feature blocks share one table in the block precomputation (docs/design.md §8). A block
/// whose parameters are a subset of another's can be looked up through that host's
/// combinations, so blocks are taken from most parameters to fewest (ties in layout order) and
/// each joins the first host that holds all its parameters, or becomes a host itself. The
/// precomputed MLP folds its tables this way, and a composed network (MlpComposition) groups its
/// inputs this way, so that each group's sub-network sees exactly one table's combinations.
class BlockHosts {
public:
    struct Assignment {
        /// For each block, the index of its host block (itself when it is a host), or -1 for a
        /// block without parameters.
        std::vector<int> host;
        /// The blocks from most parameters to fewest, the order in which they were assigned.
        std::vector<std::size_t> order;
    };
    /// The hosts of blocks given by their parameters.
    static Assignment of(const std::vector<std::vector<ParamId>>& blockParams);
};

} // namespace concorde
