#pragma once

#include "bounds/GridBounds.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace concorde {

/// The parameter grid a database precomputes, by name or as JSON (`build-db --grid`, the
/// database's meta.grid).
///
/// JSON: an object of parameter key → array of values, e.g. {"rob": [64, 128], "bp": ["tage"]};
/// choice parameters by name (numbers are accepted too). Parameters left out keep their default
/// grid. Every grid must be non-empty, strictly ascending and inside the parameter's range.
///
/// Named grids:
/// - "default": the docs/design.md §3 grid (54 memory configurations, 3,712 series per region).
/// - "full": the default grid plus every integer value of the parameters that are cheap to
///   sweep — the widths and pipe counts (commit/fetch/decode/rename widths 1–12/16, ls_pipes
///   1–8, load_pipes 0–8) and bp_miss_pct 0–20 — which are memory-independent and cost
///   microseconds per value. The capacities and the memory parameters stay on the default grid:
///   every extra memory configuration repeats the whole trace analysis and every memory-dependent
///   model (~40 ms per region each), and every ROB size one more ROB simulation per memory
///   configuration, so their full ranges (rob 8–1024 alone is 1,017 values, × 54 memory
///   configurations) are far too large to precompute.
class GridDescription {
public:
    /// "default", "full", or the path of a JSON file as above. Errors name the file.
    static BoundsGrid resolve(const std::string& spec);
    static BoundsGrid full();

    /// All twenty parameters, integers written as integers and choices by name.
    static nlohmann::json toJson(const BoundsGrid& grid);
    /// The canonical text of toJson() (keys sorted, no spaces): what meta.grid stores and what
    /// two databases compare to decide whether they hold the same grid.
    static std::string canonicalText(const BoundsGrid& grid);
    /// Reads and validates a grid object; with `requireAll` every parameter must be present.
    /// `context` names the source in errors.
    static BoundsGrid fromJson(const nlohmann::json& object, bool requireAll,
                               const std::string& context);
};

} // namespace concorde
