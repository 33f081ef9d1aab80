#include "ExportChampSimCommand.h"

#include "analysis/WarmState.h"
#include "trace/champsim/ChampSimConverter.h"

#include <CLI/CLI.hpp>
#include <ostream>

namespace concorde::cli {

std::string ExportChampSimCommand::description() const {
    return "Writes every record of the trace (warm-up included, in file order) as ChampSim\n"
           "64-byte input_instr records, xz- or gzip-compressed by the output name's extension.\n"
           "Registers follow ChampSim's convention (stack pointer 6, flags 25, instruction\n"
           "pointer 26), so ChampSim's own branch-type inference sees the same branch kinds.\n"
           "Use it to cross-check the reference simulator against ChampSim on identical input.\n\n"
           "A region with a functional warm-up state (concorde trace --functional-warmup) is\n"
           "preceded by instructions that replay it, since ChampSim can only warm up on\n"
           "instructions: a fetch of every instruction line and a load of every data line the\n"
           "state holds, oldest first, then its recent loads (caches and stride prefetcher end\n"
           "up as warm as in concorde simulate; the branch predictor learns only from the\n"
           "detailed warm-up). Pass the printed warm-up count of a region to ChampSim's\n"
           "--warmup-instructions.\n";
}

void ExportChampSimCommand::declare(CLI::App& app) {
    app.add_option("IN", input_, "the .ctrace to convert")->required();
    app.add_option("-o", output_, "the ChampSim trace to write (FILE.champsimtrace[.xz|.gz])")
        ->type_name("FILE")
        ->required();
    app.add_flag("--cold", cold_, "do not replay the regions' warm states");
}

int ExportChampSimCommand::run(std::ostream& out, std::ostream& err) {
    ChampSimConverter::ExportOptions options;
    if (!cold_)
        options.regionPrelude = [this](std::size_t index, const Region& region) {
            const auto warm =
                WarmState::ofRegion(region, input_ + " region " + std::to_string(index));
            return warm ? warm->replayRecords() : std::vector<TraceRecord>{};
        };
    const auto stats = ChampSimConverter::exportTrace(input_, output_, options);
    out << "exported " << stats.records << " records to " << output_ << "\n";
    std::uint64_t replayed = 0;
    for (const std::uint64_t n : stats.preludeRecords)
        replayed += n;
    if (replayed > 0)
        for (std::size_t r = 0; r < stats.preludeRecords.size(); ++r)
            out << "region " << r << ": " << stats.preludeRecords[r]
                << " records replay its warm state before its own warm-up\n";
    if (stats.truncatedOperands)
        err << "warning: " << stats.truncatedOperands
            << " records had more register operands than ChampSim holds; extras dropped\n";
    return 0;
}

} // namespace concorde::cli
