#pragma once

#include "analysis/MemoryConfig.h"
#include "params/ParameterSpec.h"

#include <string>
#include <utility>
#include <vector>

namespace concorde {

struct GridSeries;

/// Names one precomputed per-window series the way GridBounds produces it and a database's
/// catalog stores it: the series group ("rob", "pipes", "branches_pki.call", "rob_128"...), the
/// memory configuration when the series depends on it, and the other parameters' settings in
/// GridBounds' order.
struct SeriesKey {
    std::string name;
    bool memoryDependent = false;
    MemoryConfig memory; ///< when memoryDependent
    std::vector<std::pair<ParamId, double>> settings;

    static SeriesKey of(const GridSeries& series);

    /// Canonical text, unique per series: "rob|l1d_kb=64 l1i_kb=64 l2_kb=1024 pf_degree=0|rob=128".
    std::string text() const;
    /// The settings alone: "ls_pipes=2,load_pipes=1", "" for none.
    static std::string settingsText(const std::vector<std::pair<ParamId, double>>& settings);
};

} // namespace concorde
