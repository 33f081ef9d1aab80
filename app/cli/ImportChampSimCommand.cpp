#include "ImportChampSimCommand.h"

#include "CommonOptions.h"
#include "trace/champsim/ChampSimConverter.h"

#include <CLI/CLI.hpp>
#include <ostream>

namespace concorde::cli {

std::string ImportChampSimCommand::description() const {
    return "Converts a ChampSim trace (64-byte input_instr records; raw, xz or gzip, detected\n"
           "from the data) into one .ctrace region: N records skipped, then W warm-up records,\n"
           "then M measured records.\n\n"
           "ChampSim records carry no instruction size, operation class or access size: sizes\n"
           "are inferred from the next PC where control falls through (else 4), instructions\n"
           "become branch, load, store or int-alu, and accesses are taken as 8 bytes.\n";
}

void ImportChampSimCommand::declare(CLI::App& app) {
    app.add_option("FILE", input_, "the ChampSim trace (FILE.champsimtrace[.xz|.gz])")->required();
    app.add_option("-o", output_, "the .ctrace to write")->type_name("OUT")->required();
    app.add_option("--skip", options_.skip, "records skipped at the start")
        ->type_name("N")
        ->check(wholeNumber())
        ->capture_default_str();
    app.add_option("--warmup", options_.warmup, "warm-up records after the skip")
        ->type_name("W")
        ->check(wholeNumber())
        ->capture_default_str();
    app.add_option("--length", options_.length, "measured records after the warm-up")
        ->type_name("M")
        ->check(wholeNumber(1))
        ->default_str("the rest of the trace");
}

int ImportChampSimCommand::run(std::ostream& out, std::ostream& err) {
    const auto stats = ChampSimConverter::importTrace(input_, output_, options_);
    out << "imported " << stats.records << " records into " << output_ << "\n";
    if (stats.truncatedOperands)
        err << "warning: " << stats.truncatedOperands
            << " records had more operands than a .ctrace record holds; extras dropped\n";
    return 0;
}

} // namespace concorde::cli
