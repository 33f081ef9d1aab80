#include "ml/MonotoneConstraints.h"

#include "params/ParameterSpace.h"

namespace concorde {

std::vector<InputConstraint> MonotoneConstraints::forLayout(const FeatureLayout& layout) {
    std::vector<InputConstraint> constraints(layout.width(), InputConstraint::Unused);
    const auto fill = [&](const FeatureBlock& block, std::size_t from, std::size_t count,
                          InputConstraint c) {
        for (std::size_t i = 0; i < count; ++i)
            constraints[block.offset + from + i] = c;
    };
    for (const FeatureBlock& block : layout.blocks()) {
        if (block.kind == BlockKind::Parameter) {
            const ParamId id = block.params.front();
            const auto c = ParameterSpace::spec(id).kind == ParamKind::Choice
                               ? InputConstraint::Free
                           : id == ParamId::BpMissPct ? InputConstraint::NonDecreasing
                                                      : InputConstraint::NonIncreasing;
            fill(block, 0, block.width, c);
        } else if (block.params.empty()) {
            fill(block, 0, block.width, InputConstraint::Free);
        } else if (block.kind == BlockKind::Distributions && block.reciprocalMean) {
            const std::size_t column = block.columnWidth(layout.percentiles());
            for (std::size_t c = 0; c < block.columns.size(); ++c) {
                fill(block, c * column, column - 1, InputConstraint::NonIncreasing);
                fill(block, c * column + column - 1, 1, InputConstraint::NonDecreasing);
            }
        } else if (block.name == "aux.rob_sizes") {
            fill(block, 0, block.width, InputConstraint::NonIncreasing);
        } else if (block.name == "aux.mispredict") {
            fill(block, 0, block.width, InputConstraint::NonDecreasing);
        }
    }
    return constraints;
}

} // namespace concorde
