#include "DiagnoseCommand.h"

#include "CommonOptions.h"
#include "refsim/DiagnosticSuite.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string DiagnoseCommand::description() const {
    return "Validates the reference simulator the DiagSim way: each synthetic kernel makes one\n"
           "resource binding, and the effective value measured from simulated time must equal\n"
           "the configured one — per-class latencies, load-to-use latency per cache level,\n"
           "every width, the ROB/LQ/SQ knees, cache capacities, the misprediction penalty,\n"
           "I-cache fill and fetch-buffer limits, the BTB, return stack and indirect-target\n"
           "predictor, MSHRs and the prefetcher, and the store side: SQ entries held by store\n"
           "misses, dirty writebacks' DRAM bandwidth. Configurations\n"
           "include the ends of each parameter's range. Exits 1 if any check fails.\n";
}

void DiagnoseCommand::declare(CLI::App& app) {
    app.add_option("--group", groups_, "run only group G")
        ->type_name("G")
        ->check(oneOf(DiagnosticSuite::groups()))
        ->allow_extra_args(false);
    app.add_flag("--json", json_, "print the checks as JSON");
}

int DiagnoseCommand::run(std::ostream& out, std::ostream& err) {
    const auto groups = groups_.empty() ? DiagnosticSuite::groups() : groups_;
    const auto printRow = [&](const DiagnosticCheck& c) {
        out << (c.passed ? "PASS " : "FAIL ") << std::left << std::setw(14) << c.group
            << std::setw(26) << c.name << std::right << " configured " << std::setw(8)
            << std::setprecision(6) << c.configured << "  measured " << std::setw(10) << std::fixed
            << std::setprecision(3) << c.measured << std::defaultfloat << " " << c.unit << "  ["
            << c.setting << "]\n";
        out.flush();
    };
    const DiagnosticSuite suite;
    const auto checks = json_ ? suite.run(groups) : suite.run(groups, printRow);
    const auto failed = std::count_if(checks.begin(), checks.end(),
                                      [](const DiagnosticCheck& c) { return !c.passed; });
    if (json_) {
        nlohmann::json report;
        for (const auto& check : checks)
            report["checks"].push_back(check.toJson());
        report["passed"] = static_cast<long>(checks.size()) - failed;
        report["failed"] = failed;
        out << report.dump(2) << "\n";
    } else {
        out << checks.size() - static_cast<std::size_t>(failed) << " passed, " << failed
            << " failed\n";
    }
    if (failed > 0)
        err << "concorde diagnose: " << failed << " check(s) failed\n";
    return failed > 0 ? 1 : 0;
}

} // namespace concorde::cli
