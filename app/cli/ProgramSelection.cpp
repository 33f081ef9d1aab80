#include "ProgramSelection.h"

#include "common/ConcordeError.h"

#include <CLI/CLI.hpp>

namespace concorde::cli {

void ProgramSelection::addTo(CLI::App& app) {
    CLI::Option* one =
        app.add_option("--program", program, "one program (concorde info DB lists them)")
            ->type_name("P");
    app.add_flag("--all", all, "every program")->excludes(one);
}

std::vector<std::string> ProgramSelection::requested() const {
    if (!program && !all)
        throw usageError("give --program P or --all");
    return program ? std::vector<std::string>{*program} : std::vector<std::string>{};
}

} // namespace concorde::cli
