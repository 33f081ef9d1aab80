#include "SimulateCommand.h"

#include "ConfigOptions.h"
#include "RegionSelection.h"
#include "common/ConcordeError.h"
#include "refsim/ReferenceSimulator.h"
#include "trace/TraceReader.h"

#include <chrono>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string SimulateCommand::help() const {
    return std::string(
               "Usage: concorde simulate TRACE [--preset P] [--set KEY=VALUE ...] [--region I]\n"
               "                         [--window W] [--json]\n\n"
               "Runs the reference cycle-level out-of-order simulator on every region of TRACE\n"
               "(or only region I) after each region's warm-up, and reports cycles, CPI, the\n"
               "stall breakdown (cycles charged to what stopped dispatch) and, with --json, the\n"
               "IPC of every window of W instructions (default 400). The program's CPI is the\n"
               "instruction-weighted mean over the simulated regions.\n\n"
               "Options:\n") +
           ConfigOptions::helpText() +
           "  --region I        simulate only region I\n"
           "  --window W        window size for per-window IPC (default 400)\n"
           "  --json            print JSON\n";
}

int SimulateCommand::run(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    ArgParser parser(args);
    const ConfigOptions options = ConfigOptions::take(parser);
    const bool json = parser.takeFlag("--json");
    const auto regionText = parser.takeValue("--region");
    const auto window =
        static_cast<std::uint32_t>(parser.takeUnsigned("--window", 400, 1, 1u << 20));
    const auto traces = parser.finish();
    if (traces.size() != 1)
        throw usageError("simulate takes exactly one TRACE");

    TraceReader reader(traces.front());
    reader.verifyAll(); // a malformed trace is reported, never simulated
    const auto& regions = reader.info().regions;
    const std::vector<std::size_t> selected = RegionSelection(regionText).resolve(regions.size());

    nlohmann::json report;
    report["trace"] = traces.front();
    report["config"] = options.config.toJson();
    if (!options.presetName.empty())
        report["preset"] = options.presetName;
    std::uint64_t totalCycles = 0;
    std::uint64_t totalInstructions = 0;
    double seconds = 0;
    std::vector<TraceRecord> records;
    for (std::size_t index : selected) {
        reader.readRegion(index, records);
        const auto start = std::chrono::steady_clock::now();
        const SimulationResult result = ReferenceSimulator::simulate(
            records, static_cast<std::size_t>(regions[index].warmup), options.config, window);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        totalCycles += result.cycles;
        totalInstructions += result.instructions;
        nlohmann::json entry = result.toJson();
        entry["region"] = index;
        if (!json)
            entry.erase("window_ipc");
        report["regions"].push_back(std::move(entry));
    }
    report["instructions"] = totalInstructions;
    report["cycles"] = totalCycles;
    report["cpi"] = totalInstructions ? double(totalCycles) / double(totalInstructions) : 0.0;
    report["simulated_instructions_per_second"] = seconds > 0 ? totalInstructions / seconds : 0.0;

    if (json) {
        out << report.dump(2) << "\n";
        return 0;
    }
    out << std::fixed << std::setprecision(4);
    out << "trace:        " << traces.front() << "\n";
    if (!options.presetName.empty())
        out << "preset:       " << options.presetName << "\n";
    out << "config:       " << options.config.toAssignments() << "\n";
    for (const auto& entry : report["regions"]) {
        out << "region " << std::setw(4) << entry["region"].get<int>() << ": instructions "
            << entry["instructions"].get<std::uint64_t>() << ", cycles "
            << entry["cycles"].get<std::uint64_t>() << ", CPI " << entry["cpi"].get<double>()
            << "\n";
    }
    out << "program CPI:  " << report["cpi"].get<double>() << " over " << totalInstructions
        << " instructions\n";
    if (selected.size() == 1) {
        out << "stall breakdown (cycles):\n";
        for (const auto& [reason, cycles] : report["regions"][0]["stall_cycles"].items())
            if (cycles.get<double>() > 0)
                out << "  " << std::left << std::setw(22) << reason << std::right << std::setw(14)
                    << std::setprecision(1) << cycles.get<double>() << "\n";
    }
    return 0;
}

} // namespace concorde::cli
