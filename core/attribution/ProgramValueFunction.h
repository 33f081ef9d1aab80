#pragma once

#include "attribution/ProgramValue.h"
#include "attribution/ValueFunction.h"

#include <vector>

namespace concorde {

/// A program's CPI as one ValueFunction: the instruction-weighted mean of its regions' CPIs.
/// Used to evaluate or ablate a whole program, and to check that region-wise attribution
/// aggregates to the attribution of this function.
class ProgramValueFunction : public ValueFunction {
public:
    /// Validates the program (ProgramValue::validate()).
    explicit ProgramValueFunction(ProgramValue program);

    void evaluate(std::span<const CoreConfig> configs, std::span<double> out) const override;

    const ProgramValue& program() const { return program_; }
    /// instructions / total instructions, per region in order.
    const std::vector<double>& weights() const { return weights_; }

private:
    ProgramValue program_;
    std::vector<double> weights_;
};

} // namespace concorde
