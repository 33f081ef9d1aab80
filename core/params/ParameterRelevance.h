#pragma once

#include "params/CoreConfig.h"

#include <string>

namespace concorde {

/// Whether a parameter can change anything in a configuration: some only apply when another
/// parameter selects them (the simple predictor's miss rate under TAGE). The explorer disables
/// such a slider and says why; a sweep or sensitivity over it would show only the model's noise.
class ParameterRelevance {
public:
    /// Why `id` has no effect in `config`, one sentence for a tooltip; empty when it has one.
    static std::string whyNoEffect(const CoreConfig& config, ParamId id);
};

} // namespace concorde
