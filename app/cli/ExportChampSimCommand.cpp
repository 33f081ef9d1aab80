#include "ExportChampSimCommand.h"

#include "ArgParser.h"
#include "common/ConcordeError.h"
#include "trace/champsim/ChampSimConverter.h"

#include <ostream>

namespace concorde::cli {

std::string ExportChampSimCommand::help() const {
    return "Usage: concorde export-champsim IN.ctrace -o FILE.champsimtrace[.xz|.gz]\n\n"
           "Writes every record of the trace (warm-up included, in file order) as ChampSim\n"
           "64-byte input_instr records, xz- or gzip-compressed by the output name's extension.\n"
           "Registers follow ChampSim's convention (stack pointer 6, flags 25, instruction\n"
           "pointer 26), so ChampSim's own branch-type inference sees the same branch kinds.\n"
           "Use it to cross-check the reference simulator against ChampSim on identical input.\n";
}

int ExportChampSimCommand::run(const std::vector<std::string>& args, std::ostream& out,
                               std::ostream& err) {
    ArgParser parser(args);
    const auto output = parser.takeValue("-o");
    const auto inputs = parser.finish();
    if (inputs.size() != 1 || !output)
        throw usageError("export-champsim needs one input .ctrace and -o OUTPUT");
    const auto stats = ChampSimConverter::exportTrace(inputs.front(), *output);
    out << "exported " << stats.records << " records to " << *output << "\n";
    if (stats.truncatedOperands)
        err << "warning: " << stats.truncatedOperands
            << " records had more register operands than ChampSim holds; extras dropped\n";
    return 0;
}

} // namespace concorde::cli
