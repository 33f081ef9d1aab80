#pragma once

#include "bounds/WindowBounds.h"
#include "params/MethodConstants.h"

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace concorde {

/// Every analytical bound for one region and one configuration (what `concorde bounds` prints):
/// per resource a per-window IPC upper bound, which resource binds each window (the smallest
/// bound), and the auxiliary per-window series and scalars of docs/design.md §7.
struct ResourceBounds {
    std::uint32_t windowSize = kDefaultWindowSize;
    std::uint64_t instructions = 0;
    std::vector<std::string> resources; ///< names, e.g. "rob", "lq", "alu_issue", "fetch_width"
    std::vector<WindowSeries> series;   ///< one per resource, same order
    std::vector<std::uint16_t> binding; ///< per window: index into resources of the minimum
    std::map<std::string, WindowSeries> auxiliary; ///< e.g. "pipes_lower", "branch.direct-cond"
    std::map<std::string, double> scalars;         ///< e.g. "rob_ipc.128", "mispredict_rate"

    std::size_t windows() const { return binding.size(); }
    /// The per-window minimum over all resources: the analytical "min of bounds" IPC.
    WindowSeries minimum() const;
    /// Mean of a resource's bound (harmonic, i.e. instructions over summed window times, so it
    /// is the IPC the resource alone would allow over the region).
    double meanBound(std::size_t resource) const;
    /// Fraction of windows each resource binds.
    std::vector<double> bindingShare() const;

    nlohmann::json toJson(bool withSeries) const;
    /// One row per window: window,binding,<resource>...,<auxiliary>...
    std::string toCsv() const;
};

} // namespace concorde
