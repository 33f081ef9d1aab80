#pragma once

#include "analysis/LatencyTable.h"
#include "analysis/MemorySystemSpec.h"
#include "refsim/PipelineSpec.h"

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace concorde {

/// One DiagSim-style check: a synthetic kernel makes one resource binding, and the effective value
/// measured from the simulated timing must equal the configured one.
struct DiagnosticCheck {
    std::string group;   ///< "latency", "load-to-use", "width", "knee", "capacity", ...
    std::string name;    ///< e.g. "int-mul latency", "rob knee (fillers=126)"
    std::string setting; ///< the configuration it ran with, e.g. "alu_issue=3 on big"
    std::string unit;
    double configured = 0;
    double measured = 0;
    double tolerance = 0; ///< |measured − configured| ≤ tolerance passes
    bool passed = false;
    std::string how; ///< how `measured` was obtained, for the report
    /// A lower bound instead of a value: passes when measured ≥ configured (e.g. a speed-up).
    bool atLeast = false;

    nlohmann::json toJson() const;
};

/// Runs the synthetic kernel suite through the reference simulator at several configurations,
/// including the ends of each parameter's range, and compares measured effective values with
/// configured ones (docs/design.md §6, `concorde diagnose`).
///
/// Measurements use steady-state throughput: the commit cycles of the second half of the measured
/// instructions (so pipeline fill does not count). Latencies and widths are compared after
/// rounding to a whole cycle or instruction (`tolerance` 0 on the rounded value); knees must be
/// within ±1 entry.
class DiagnosticSuite {
public:
    explicit DiagnosticSuite(const PipelineSpec& pipeline = {}, const MemorySystemSpec& memory = {},
                             const LatencyTable& latencies = {});

    /// Runs every check; `progress` (optional) is called after each one.
    std::vector<DiagnosticCheck>
    run(const std::function<void(const DiagnosticCheck&)>& progress = {}) const;

    /// Group names in the order run() produces them.
    static std::vector<std::string> groups();
    /// Runs only the checks of the named groups.
    std::vector<DiagnosticCheck>
    run(const std::vector<std::string>& groups,
        const std::function<void(const DiagnosticCheck&)>& progress = {}) const;

private:
    PipelineSpec pipeline_;
    MemorySystemSpec memory_;
    LatencyTable latencies_;
};

} // namespace concorde
