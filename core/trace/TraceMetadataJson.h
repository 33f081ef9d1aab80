#pragma once

#include "trace/TraceInfo.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace concorde {

/// TraceInfo as stored in the .ctrace metadata section (and printed by `concorde info --json`).
nlohmann::json traceInfoToJson(const TraceInfo& info);
/// Parses the metadata section; throws std::runtime_error-derived nlohmann or ConcordeError
/// exceptions with a description of the first missing or mistyped field.
TraceInfo traceInfoFromJson(const nlohmann::json& json);

} // namespace concorde
