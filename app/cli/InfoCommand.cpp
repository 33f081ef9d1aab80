#include "InfoCommand.h"

#include "ArgParser.h"
#include "DatabaseInfo.h"
#include "common/ConcordeError.h"
#include "store/FeatureDatabase.h"
#include "trace/TraceMetadataJson.h"
#include "trace/TraceReader.h"
#include "trace/TraceSummary.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace concorde::cli {

std::string InfoCommand::help() const {
    return "Usage: concorde info FILE [--json]\n\n"
           "Describes a .ctrace trace: where it came from, the instruction count, the mix of\n"
           "instruction classes, the fractions of loads, stores and branches, and the region\n"
           "table (program position, warm-up and measured length of each region). Every block\n"
           "is read and checked, so a corrupt trace is reported here.\n\n"
           "For a feature database (an SQLite file, see concorde build-db): its build settings\n"
           "and grid, programs, regions with the bytes each stores, labels, models and the\n"
           "bytes taken by each table and index.\n\n"
           "Options:\n"
           "  --json   print one JSON object instead of text\n";
}

namespace {

std::string percent(double fraction) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(2) << 100.0 * fraction << " %";
    return text.str();
}

} // namespace

int InfoCommand::run(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    ArgParser parser(args);
    const bool json = parser.takeFlag("--json");
    const auto files = parser.finish();
    if (files.size() != 1)
        throw usageError("info takes exactly one FILE");
    if (FeatureDatabase::isSqliteFile(files.front())) {
        DatabaseInfo::print(files.front(), json, out);
        return 0;
    }

    TraceReader reader(files.front());
    const TraceSummary summary = TraceSummary::of(reader);
    const TraceInfo& info = reader.info();

    if (json) {
        nlohmann::json document = traceInfoToJson(info);
        for (auto& region : document["regions"])
            region.erase("bbv");
        document["file"] = files.front();
        document["summary"] = summary.toJson();
        out << document.dump(2) << "\n";
        return 0;
    }

    out << "file:          " << files.front() << "\n"
        << "format:        .ctrace, ISA " << info.isa << ", source " << info.source << "\n"
        << "command line:  " << info.commandLine << "\n";
    for (const auto& [key, value] : info.properties)
        out << "  " << key << " = " << value << "\n";
    out << "instructions:  " << summary.instructions << "\n"
        << "loads:         " << percent(summary.fraction(summary.withLoad)) << " of instructions\n"
        << "stores:        " << percent(summary.fraction(summary.withStore)) << " of instructions\n"
        << "branches:      " << percent(summary.fraction(summary.branches)) << " of instructions, "
        << (summary.branches ? percent(static_cast<double>(summary.takenBranches) /
                                       static_cast<double>(summary.branches))
                             : std::string("0 %"))
        << " taken\n"
        << "class mix:\n";
    for (std::size_t i = 0; i < kInstrClassCount; ++i) {
        if (summary.byClass[i] == 0)
            continue;
        out << "  " << std::left << std::setw(10) << instrClassName(static_cast<InstrClass>(i))
            << std::right << std::setw(12) << summary.byClass[i] << "  "
            << percent(summary.fraction(summary.byClass[i])) << "\n";
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
