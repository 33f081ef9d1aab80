#include "ValidateDbCommand.h"

#include "ArgParser.h"
#include "common/ConcordeError.h"
#include "store/DatabaseValidator.h"

#include <ostream>

namespace concorde::cli {

std::string ValidateDbCommand::help() const {
    return "Usage: concorde validate-db DB.sqlite\n\n"
           "Checks a feature database completely: SQLite's integrity check, the schema version,\n"
           "every table, view and column, the grid and its memory configurations and series\n"
           "keys, and for every region that every series group the grid requires is present\n"
           "and decodes (sizes, CRC-32, values), that its trace records decode, and that every\n"
           "label decodes and is consistent. Prints every problem found.\n\n"
           "Exit code: 0 when the database is clean, 1 when problems were found, 2 when the\n"
           "file is missing or not a feature database at all.\n";
}

int ValidateDbCommand::run(const std::vector<std::string>& args, std::ostream& out,
                           std::ostream& err) {
    ArgParser parser(args);
    const auto files = parser.finish();
    if (files.size() != 1)
        throw usageError("validate-db takes exactly one DB");
    const auto report = DatabaseValidator::validate(files.front());
    if (!report.clean()) {
        err << files.front() << ": " << report.problems.size() << " problem"
            << (report.problems.size() == 1 ? "" : "s") << ":\n";
        for (const auto& problem : report.problems)
            err << "  " << problem << "\n";
        return 1;
    }
    out << files.front() << ": OK — " << report.regions << " regions (" << report.completeRegions
        << " complete), " << report.seriesGroups << " series groups (" << report.series
        << " series) and " << report.labels << " labels checked\n";
    return 0;
}

} // namespace concorde::cli
