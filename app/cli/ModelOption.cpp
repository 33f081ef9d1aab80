#include "ModelOption.h"

#include "ArgParser.h"
#include "common/ConcordeError.h"
#include "store/FeatureDatabase.h"

namespace concorde::cli {

ModelOption ModelOption::take(ArgParser& parser) {
    ModelOption option;
    option.modelFrom = parser.takeValue("--model-from");
    option.name = parser.takeValue("--model");
    return option;
}

const char* ModelOption::helpText() {
    return "  --model-from DB2  use the CPI model stored in another database (e.g. the shipped\n"
           "                    data/default.sqlite) instead of this one's\n"
           "  --model NAME      which model of that database (default: the newest)\n";
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
