#include "InfoCommand.h"

#include "DatabaseInfo.h"
#include "TextFormat.h"
#include "store/FeatureDatabase.h"
#include "trace/TraceMetadataJson.h"
#include "trace/TraceReader.h"
#include "trace/TraceSummary.h"

#include <CLI/CLI.hpp>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace concorde::cli {

std::string InfoCommand::description() const {
    return "Describes a .ctrace trace: where it came from, the instruction count, the mix of\n"
           "instruction classes, the fractions of loads, stores and branches, and the region\n"
           "table (program position, warm-up and measured length of each region). Every block\n"
           "is read and checked, so a corrupt trace is reported here.\n\n"
           "For a feature database (an SQLite file, see concorde build-db): its build settings\n"
           "and grid, programs, regions with the bytes each stores, labels, models and the\n"
           "bytes taken by each table and index.\n";
}

void InfoCommand::declare(CLI::App& app) {
    app.add_option("FILE", file_, "a .ctrace trace or a feature database")->required();
    app.add_flag("--json", json_, "print one JSON object instead of text");
}

int InfoCommand::run(std::ostream& out, std::ostream&) {
    if (FeatureDatabase::isSqliteFile(file_)) {
        DatabaseInfo::print(file_, json_, out);
        return 0;
    }

    TraceReader reader(file_);
    const TraceSummary summary = TraceSummary::of(reader);
    const TraceInfo& info = reader.info();

    if (json_) {
        nlohmann::json document = traceInfoToJson(info);
        for (auto& region : document["regions"])
            region.erase("bbv");
        document["file"] = file_;
        document["summary"] = summary.toJson();
        out << document.dump(2) << "\n";
        return 0;
    }

    out << "file:          " << file_ << "\n"
        << "format:        .ctrace, ISA " << info.isa << ", source " << info.source << "\n"
        << "command line:  " << info.commandLine << "\n";
    for (const auto& [key, value] : info.properties)
        out << "  " << key << " = " << value << "\n";
    out << "instructions:  " << summary.instructions << "\n"
        << "loads:         " << TextFormat::percent(summary.fraction(summary.withLoad))
        << " of instructions\n"
        << "stores:        " << TextFormat::percent(summary.fraction(summary.withStore))
        << " of instructions\n"
        << "branches:      " << TextFormat::percent(summary.fraction(summary.branches))
        << " of instructions, "
        << (summary.branches ? TextFormat::percent(static_cast<double>(summary.takenBranches) /
                                                   static_cast<double>(summary.branches))
                             : std::string("0 %"))
        << " taken\n"
        << "class mix:\n";
    for (std::size_t i = 0; i < kInstrClassCount; ++i) {
        if (summary.byClass[i] == 0)
            continue;
        out << "  " << std::left << std::setw(10) << instrClassName(static_cast<InstrClass>(i))
            << std::right << std::setw(12) << summary.byClass[i] << "  "
            << TextFormat::percent(summary.fraction(summary.byClass[i])) << "\n";
    }
    if (summary.branches) {
        out << "branch kinds:\n";
        for (std::size_t i = 1; i < kBranchKindCount; ++i)
            if (summary.byBranchKind[i])
                out << "  " << std::left << std::setw(14)
                    << branchKindName(static_cast<BranchKind>(i)) << std::right << std::setw(10)
                    << summary.byBranchKind[i] << "\n";
    }
    out << "regions:       " << info.regions.size() << "\n";
    out << "  #   program start        warm-up       length   bbv entries\n";
    for (std::size_t i = 0; i < info.regions.size(); ++i) {
        const Region& r = info.regions[i];
        out << "  " << std::left << std::setw(4) << i << std::right << std::setw(14)
            << r.programStart << std::setw(15) << r.warmup << std::setw(13) << r.length
            << std::setw(14) << r.basicBlockVector.size() << "\n";
    }
    return 0;
}

} // namespace concorde::cli
