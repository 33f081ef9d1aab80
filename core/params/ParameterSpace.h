#pragma once

#include "params/ParameterSpec.h"

#include <optional>
#include <span>
#include <string_view>

namespace concorde {

/// The fixed table of the twenty parameters (docs/design.md §3). Stateless: all functions are
/// lookups.
class ParameterSpace {
public:
    /// All parameters in ParamId order.
    static std::span<const ParameterSpec> all();
    static const ParameterSpec& spec(ParamId id);
    /// Finds a parameter by key; nullopt when no parameter has that key.
    static std::optional<ParamId> find(std::string_view key);
    /// Like find() but throws a bad-input error listing the valid keys.
    static ParamId require(std::string_view key);
    /// The keys joined by ", " (for error messages and help text).
    static std::string keyList();
    /// Which way a parameter makes the core better (issue 17's monotonicity): +1 when a larger
    /// value is the bigger core (sizes, widths, prefetch degree), −1 for bp_miss_pct (fewer
    /// mispredictions), 0 for choices, which are not ordered (the predictor).
    static int betterDirection(ParamId id);
};

inline std::size_t index(ParamId id) {
    return static_cast<std::size_t>(id);
}

} // namespace concorde
