#pragma once

#include "features/ParameterGrid.h"
#include "params/CoreConfig.h"

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace concorde {

/// Something the user should know about one parameter of a configuration before trusting its
/// predicted CPI.
struct ParameterWarning {
    enum class Kind {
        OffGrid,         ///< not a value the database precomputed: predicted at `usedValue`
        OutsideTraining, ///< beyond the smallest or largest value the model was trained on
        BetweenTrained,  ///< inside the trained range but not one of the trained values
    };
    ParamId id = ParamId::Rob;
    Kind kind = Kind::OffGrid;
    double value = 0;     ///< the configuration's value
    double usedValue = 0; ///< the value the prediction used (the nearest database grid value)
    std::string message;  ///< one sentence for the user
};

/// Checks configurations against what the database and the model can answer: predictions need
/// every parameter on the database's grid (DatabasePredictor), and a model is only trustworthy
/// on the values it was trained on (CpiModel::metrics "dataset.grid").
///
/// snap() moves each parameter to the nearest database grid value, so any configuration (a
/// preset between grid points, a hand-written session file) still gets a prediction; check()
/// says what was moved and which of the values predicted lie outside the training data.
class ConfigChecker {
public:
    using TrainedValues = std::array<std::vector<double>, kParamCount>;

    /// `trained[p]` empty: nothing is known about parameter p's training values.
    ConfigChecker(ParameterGrid grid, TrainedValues trained);

    /// The values each parameter took in training, from metrics["dataset"]["grid"] (or the
    /// first of metrics["dataset"]["files"]): {key: [values or choice names]}. Unknown keys and
    /// malformed values are skipped; a model without the record gives empty lists.
    static TrainedValues trainedValuesFromMetrics(const nlohmann::json& metrics);

    const ParameterGrid& grid() const { return grid_; }
    const std::vector<double>& trainedValues(ParamId id) const { return trained_[index(id)]; }

    /// Every parameter moved to its nearest database grid value (ties go to the smaller value).
    CoreConfig snap(const CoreConfig& config) const;
    /// Warnings for `config`, in parameter order: off-grid values first say what was predicted
    /// instead, then the predicted values are checked against the training values.
    std::vector<ParameterWarning> check(const CoreConfig& config) const;

private:
    ParameterGrid grid_;
    TrainedValues trained_;
};

} // namespace concorde
