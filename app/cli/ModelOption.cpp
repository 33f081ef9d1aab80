#include "ModelOption.h"

#include "common/ConcordeError.h"
#include "store/FeatureDatabase.h"

#include <CLI/CLI.hpp>

namespace concorde::cli {

void ModelOption::addTo(CLI::App& app) {
    app.add_option("--model-from", modelFrom,
                   "use the CPI model stored in another database (e.g. the shipped "
                   "data/default.sqlite) instead of this one's")
        ->type_name("DB2");
    app.add_option("--model", name, "which model of that database")
        ->type_name("NAME")
        ->default_str("the newest");
}

CpiModel ModelOption::load(const std::string& database) const {
    const std::string source = modelFrom.value_or(database);
    FeatureDatabase db = FeatureDatabase::openReadOnly(source);
    auto model = db.readModel(name.value_or(""));
    if (!model)
        throw badInput(
            source +
            (name ? " has no model called '" + *name + "'" : std::string(" holds no CPI model")) +
            "; train one with concorde train --dataset FILE --db " + source +
            ", or use --model-from with a database that has one");
    return std::move(*model);
}

} // namespace concorde::cli
