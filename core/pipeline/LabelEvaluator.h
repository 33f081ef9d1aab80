#pragma once

#include "ml/AccuracyReport.h"

#include <map>
#include <string>

namespace concorde {

class FeatureDatabase;
struct CpiModel;

/// The database half of `concorde evaluate`: the model's predictions (block-precomputed, as
/// every live prediction) against the reference-simulator labels a database holds (from
/// `concorde label`), with the min-of-bounds and linear baselines computed from the same stored
/// series. Works with a model from another database: that is how a user checks the shipped
/// model on their own programs.
class LabelEvaluator {
public:
    struct Result {
        AccuracyReport all;
        std::map<std::string, AccuracyReport> bySource; ///< "random", "preset:n1-like", ...
        std::size_t offGrid = 0; ///< labels whose configuration is not on the database's grid
    };
    static Result evaluate(FeatureDatabase& database, const CpiModel& model);
};

} // namespace concorde
