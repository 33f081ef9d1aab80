#include "params/ParameterRelevance.h"

namespace concorde {

std::string ParameterRelevance::whyNoEffect(const CoreConfig& config, ParamId id) {
    // Every simulator, analytical model and stored series reads bp_miss_pct only for the simple
    // predictor (FeatureAssembler keys TAGE's misprediction series without it).
    if (id == ParamId::BpMissPct && config.branchPredictor() != BranchPredictorKind::Simple)
        return "Applies only to the simple branch predictor: TAGE predicts from the program's "
               "branch history, so its miss rate is measured, not set. Choose bp=simple to use "
               "this.";
    return {};
}

} // namespace concorde
