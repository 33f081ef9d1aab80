#include "ImportChampSimCommand.h"

#include "ArgParser.h"
#include "common/ConcordeError.h"
#include "trace/champsim/ChampSimConverter.h"

#include <ostream>

namespace concorde::cli {

std::string ImportChampSimCommand::help() const {
    return "Usage: concorde import-champsim FILE.champsimtrace[.xz|.gz] -o OUT.ctrace\n"
           "                                [--skip N] [--warmup W] [--length M]\n\n"
           "Converts a ChampSim trace (64-byte input_instr records; raw, xz or gzip, detected\n"
           "from the data) into one .ctrace region: N records skipped, then W warm-up records,\n"
           "then M measured records (default: the rest of the trace).\n\n"
           "ChampSim records carry no instruction size, operation class or access size: sizes\n"
           "are inferred from the next PC where control falls through (else 4), instructions\n"
           "become branch, load, store or int-alu, and accesses are taken as 8 bytes.\n";
}

int ImportChampSimCommand::run(const std::vector<std::string>& args, std::ostream& out,
                               std::ostream& err) {
    ArgParser parser(args);
    const auto output = parser.takeValue("-o");
    ChampSimConverter::ImportOptions options;
    options.skip = parser.takeUnsigned("--skip", 0);
    options.warmup = parser.takeUnsigned("--warmup", 0);
    options.length = parser.takeUnsigned("--length", UINT64_MAX, 1);
    const auto inputs = parser.finish();
    if (inputs.size() != 1 || !output)
        throw usageError("import-champsim needs one input FILE and -o OUT.ctrace");
    const auto stats = ChampSimConverter::importTrace(inputs.front(), *output, options);
    out << "imported " << stats.records << " records into " << *output << "\n";
    if (stats.truncatedOperands)
        err << "warning: " << stats.truncatedOperands
            << " records had more operands than a .ctrace record holds; extras dropped\n";
    return 0;
}

} // namespace concorde::cli
