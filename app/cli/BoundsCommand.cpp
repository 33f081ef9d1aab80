#include "BoundsCommand.h"

#include "analysis/MemoryConfig.h"
#include "analysis/RegionAnalyzer.h"
#include "analysis/WarmState.h"
#include "bounds/BoundsCalculator.h"
#include "trace/TraceReader.h"

#include <CLI/CLI.hpp>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string BoundsCommand::description() const {
    return "Runs the per-resource analytical models on every region of TRACE\n"
           "(or region I) for one configuration: for each resource the throughput bound it\n"
           "alone imposes on every window of W instructions, and which resource binds each\n"
           "window. Text output summarises each region (mean bound per resource and how often\n"
           "it binds); --json adds every series and the auxiliary features; --csv prints one\n"
           "row per window.\n";
}

void BoundsCommand::declare(CLI::App& app) {
    workload_.addTo(app, "window size in instructions", 16);
    addLoadQueueModelOption(app, analysis_);
    CLI::Option* json = app.add_flag("--json", json_, "JSON with all series");
    app.add_flag("--csv", csv_, "CSV: region,window,binding,<resource bounds>,<auxiliary>")
        ->excludes(json);
}

int BoundsCommand::run(std::ostream& out, std::ostream&) {
    TraceReader reader(workload_.trace);
    const std::vector<std::size_t> selected = workload_.selectRegions(reader);
    const auto& regions = reader.info().regions;

    const RegionAnalyzer analyzer;
    const BoundsCalculator calculator(workload_.window, 1, analysis_);
    const MemoryConfig memory = MemoryConfig::fromCoreConfig(workload_.config.config);
    nlohmann::json report;
    report["trace"] = workload_.trace;
    report["config"] = workload_.config.config.toJson();
    std::vector<TraceRecord> records;
    bool header = true;
    for (std::size_t index : selected) {
        reader.readRegion(index, records);
        const AnnotatedRegion region =
            analyzer.analyze(records, regions[index].warmup, memory,
                             WarmState::ofRegion(regions[index], workload_.trace + " region " +
                                                                     std::to_string(index)));
        const ResourceBounds bounds = calculator.compute(region, workload_.config.config);
        if (csv_) {
            const std::string table = bounds.toCsv();
            std::size_t lineStart = 0;
            while (lineStart < table.size()) {
                const std::size_t lineEnd = table.find('\n', lineStart);
                const std::string line = table.substr(lineStart, lineEnd - lineStart);
                if (lineStart == 0) {
                    if (header)
                        out << "region," << line << "\n";
                    header = false;
                } else {
                    out << index << "," << line << "\n";
                }
                lineStart = lineEnd + 1;
            }
            continue;
        }
        nlohmann::json entry = bounds.toJson(json_);
        entry["region"] = index;
        report["regions"].push_back(std::move(entry));
        if (json_)
            continue;
        out << "region " << index << ": " << bounds.instructions << " instructions, "
            << bounds.windows() << " windows of " << workload_.window << ", min-of-bounds IPC "
            << std::fixed << std::setprecision(3)
            << report["regions"].back()["min_of_bounds_ipc"].get<double>() << "\n";
        const auto share = bounds.bindingShare();
        out << "  resource        mean bound   binds\n";
        for (std::size_t r = 0; r < bounds.resources.size(); ++r)
            out << "  " << std::left << std::setw(14) << bounds.resources[r] << std::right
                << std::setw(11) << std::setprecision(3) << bounds.meanBound(r) << std::setw(7)
                << std::setprecision(0) << 100.0 * share[r] << " %\n";
    }
    if (json_)
        out << report.dump(2) << "\n";
    return 0;
}

} // namespace concorde::cli
