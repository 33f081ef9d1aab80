#include "SimulateCommand.h"

#include "analysis/WarmState.h"
#include "common/ConcordeError.h"
#include "refsim/ReferenceSimulator.h"
#include "trace/TraceReader.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string SimulateCommand::description() const {
    return "Runs the reference cycle-level out-of-order simulator on every region of TRACE\n"
           "(or only region I) after each region's warm-up, and reports cycles, CPI, the\n"
           "stall breakdown (cycles charged to what stopped dispatch) and, with --json, the\n"
           "IPC of every window of W instructions. The program's CPI is the instruction-weighted\n"
           "mean over the simulated regions.\n";
}

void SimulateCommand::declare(CLI::App& app) {
    workload_.addTo(app, "window size for per-window IPC", 1);
    app.add_flag("--json", json_, "print JSON");
}

int SimulateCommand::run(std::ostream& out, std::ostream&) {
    TraceReader reader(workload_.trace);
    const std::vector<std::size_t> selected = workload_.selectRegions(reader);
    const auto& regions = reader.info().regions;

    nlohmann::json report;
    report["trace"] = workload_.trace;
    report["config"] = workload_.config.config.toJson();
    if (!workload_.config.presetName.empty())
        report["preset"] = workload_.config.presetName;
    std::uint64_t totalCycles = 0;
    std::uint64_t totalInstructions = 0;
    double seconds = 0;
    std::vector<TraceRecord> records;
    for (std::size_t index : selected) {
        reader.readRegion(index, records);
        const std::shared_ptr<const WarmState> warm = WarmState::ofRegion(
            regions[index], workload_.trace + " region " + std::to_string(index));
        const auto start = std::chrono::steady_clock::now();
        const SimulationResult result =
            ReferenceSimulator::simulate(records, static_cast<std::size_t>(regions[index].warmup),
                                         workload_.config.config, workload_.window, warm.get());
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        totalCycles += result.cycles;
        totalInstructions += result.instructions;
        nlohmann::json entry = result.toJson();
        entry["region"] = index;
        entry["functional_warmup"] = warm ? regions[index].functionalWarmup : 0;
        if (!json_)
            entry.erase("window_ipc");
        report["regions"].push_back(std::move(entry));
    }
    report["instructions"] = totalInstructions;
    report["cycles"] = totalCycles;
    if (totalInstructions == 0) // no CPI to report: never print 0 or NaN as one
        throw badInput(workload_.trace + ": the selected regions hold no measured instructions");
    report["cpi"] = double(totalCycles) / double(totalInstructions);
    report["simulated_instructions_per_second"] = seconds > 0 ? totalInstructions / seconds : 0.0;

    if (json_) {
        out << report.dump(2) << "\n";
        return 0;
    }
    out << std::fixed << std::setprecision(4);
    out << "trace:        " << workload_.trace << "\n";
    if (!workload_.config.presetName.empty())
        out << "preset:       " << workload_.config.presetName << "\n";
    out << "config:       " << workload_.config.config.toAssignments() << "\n";
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
