#include "BoundsCommand.h"

#include "ConfigOptions.h"
#include "RegionSelection.h"
#include "analysis/MemoryConfig.h"
#include "analysis/RegionAnalyzer.h"
#include "bounds/BoundsCalculator.h"
#include "common/ConcordeError.h"
#include "trace/TraceReader.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string BoundsCommand::help() const {
    return std::string(
               "Usage: concorde bounds TRACE [--preset P] [--set KEY=VALUE ...] [--region I]\n"
               "                       [--window W] [--json | --csv]\n\n"
               "Runs the per-resource analytical models (DESIGN §7) on every region of TRACE\n"
               "(or region I) for one configuration: for each resource the throughput bound it\n"
               "alone imposes on every window of W instructions (default 400), and which\n"
               "resource binds each window. Text output summarises each region (mean bound per\n"
               "resource and how often it binds); --json adds every series and the auxiliary\n"
               "features; --csv prints one row per window.\n\n"
               "Options:\n") +
           ConfigOptions::helpText() +
           "  --region I        only region I\n"
           "  --window W        window size in instructions (default 400)\n"
           "  --json            JSON with all series\n"
           "  --csv             CSV: region,window,binding,<resource bounds>,<auxiliary>\n";
}

int BoundsCommand::run(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    ArgParser parser(args);
    const ConfigOptions options = ConfigOptions::take(parser);
    const bool json = parser.takeFlag("--json");
    const bool csv = parser.takeFlag("--csv");
    const auto regionText = parser.takeValue("--region");
    const auto window =
        static_cast<std::uint32_t>(parser.takeUnsigned("--window", 400, 16, 1u << 20));
    const auto traces = parser.finish();
    if (traces.size() != 1)
        throw usageError("bounds takes exactly one TRACE");
    if (json && csv)
        throw usageError("choose one of --json and --csv");

    TraceReader reader(traces.front());
    reader.verifyAll();
    const auto& regions = reader.info().regions;
    const std::vector<std::size_t> selected = RegionSelection(regionText).resolve(regions.size());

    const RegionAnalyzer analyzer;
    const BoundsCalculator calculator(window);
    const MemoryConfig memory = MemoryConfig::fromCoreConfig(options.config);
    nlohmann::json report;
    report["trace"] = traces.front();
    report["config"] = options.config.toJson();
    std::vector<TraceRecord> records;
    bool header = true;
    for (std::size_t index : selected) {
        reader.readRegion(index, records);
        const AnnotatedRegion region = analyzer.analyze(records, regions[index].warmup, memory);
        const ResourceBounds bounds = calculator.compute(region, options.config);
        if (csv) {
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
        nlohmann::json entry = bounds.toJson(json);
        entry["region"] = index;
        report["regions"].push_back(std::move(entry));
        if (json)
            continue;
        out << "region " << index << ": " << bounds.instructions << " instructions, "
            << bounds.windows() << " windows of " << window << ", min-of-bounds IPC " << std::fixed
            << std::setprecision(3) << report["regions"].back()["min_of_bounds_ipc"].get<double>()
            << "\n";
        const auto share = bounds.bindingShare();
        out << "  resource        mean bound   binds\n";
        for (std::size_t r = 0; r < bounds.resources.size(); ++r)
            out << "  " << std::left << std::setw(14) << bounds.resources[r] << std::right
                << std::setw(11) << std::setprecision(3) << bounds.meanBound(r) << std::setw(7)
                << std::setprecision(0) << 100.0 * share[r] << " %\n";
    }
    if (json)
        out << report.dump(2) << "\n";
    return 0;
}

} // namespace concorde::cli
