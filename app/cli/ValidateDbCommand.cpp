#include "ValidateDbCommand.h"

#include "explore/ModelCheck.h"
#include "store/DatabaseValidator.h"

#include <CLI/CLI.hpp>
#include <ostream>

namespace concorde::cli {

std::string ValidateDbCommand::description() const {
    return "Checks a feature database completely: SQLite's integrity check, the schema version,\n"
           "every table, view and column, the grid and its memory configurations and series\n"
           "keys, and for every region that every series group the grid requires is present\n"
           "and decodes (sizes, CRC-32, values), that its trace records decode, and that every\n"
           "label decodes and is consistent. Then it loads every model as the explorer does\n"
           "(layout, weights, normalisation, linear baseline, measured accuracy) and runs it\n"
           "on a region. Prints every problem found, then per program the damaged regions\n"
           "(a regions row or a series group that does not read), which predict and the\n"
           "explorer skip, and how many regions are left to predict from.\n\n"
           "Exit code: 0 when the database is clean, 1 when problems were found, 2 when the\n"
           "file is missing or not a feature database at all.\n";
}

void ValidateDbCommand::declare(CLI::App& app) {
    app.add_option("DB", db_, "the feature database (DB.sqlite)")->required();
}

int ValidateDbCommand::run(std::ostream& out, std::ostream& err) {
    auto report = DatabaseValidator::validate(db_);
    // The blobs can all decode and the model still not load: check what the explorer will use.
    ModelCheck::Report models;
    try {
        models = ModelCheck::run(db_);
    } catch (const std::exception& e) {
        models.problems.push_back(std::string("cannot check the models: ") + e.what());
    }
    report.problems.insert(report.problems.end(), models.problems.begin(), models.problems.end());
    if (!report.clean()) {
        err << db_ << ": " << report.problems.size() << " problem"
            << (report.problems.size() == 1 ? "" : "s") << ":\n";
        for (const auto& problem : report.problems)
            err << "  " << problem << "\n";
        if (!report.damagedPrograms.empty()) {
            err << report.damagedRegions << " damaged region"
                << (report.damagedRegions == 1 ? "" : "s")
                << " (predict and the explorer skip them and predict from the rest):\n";
            for (const auto& line : report.damagedPrograms)
                err << "  " << line << "\n";
        }
        return 1;
    }
    out << db_ << ": OK — " << report.regions << " regions (" << report.completeRegions
        << " complete), " << report.seriesGroups << " series groups (" << report.series
        << " series), " << report.labels << " labels and " << models.models << " model"
        << (models.models == 1 ? "" : "s") << " checked\n";
    return 0;
}

} // namespace concorde::cli
