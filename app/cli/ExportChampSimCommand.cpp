#include "ExportChampSimCommand.h"

#include "trace/champsim/ChampSimConverter.h"

#include <CLI/CLI.hpp>
#include <ostream>

namespace concorde::cli {

std::string ExportChampSimCommand::description() const {
    return "Writes every record of the trace (warm-up included, in file order) as ChampSim\n"
           "64-byte input_instr records, xz- or gzip-compressed by the output name's extension.\n"
           "Registers follow ChampSim's convention (stack pointer 6, flags 25, instruction\n"
           "pointer 26), so ChampSim's own branch-type inference sees the same branch kinds.\n"
           "Use it to cross-check the reference simulator against ChampSim on identical input.\n";
}

void ExportChampSimCommand::declare(CLI::App& app) {
    app.add_option("IN", input_, "the .ctrace to convert")->required();
    app.add_option("-o", output_, "the ChampSim trace to write (FILE.champsimtrace[.xz|.gz])")
        ->type_name("FILE")
        ->required();
}

int ExportChampSimCommand::run(std::ostream& out, std::ostream& err) {
    const auto stats = ChampSimConverter::exportTrace(input_, output_);
    out << "exported " << stats.records << " records to " << output_ << "\n";
    if (stats.truncatedOperands)
        err << "warning: " << stats.truncatedOperands
            << " records had more register operands than ChampSim holds; extras dropped\n";
    return 0;
}

} // namespace concorde::cli
