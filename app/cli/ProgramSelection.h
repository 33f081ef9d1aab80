#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace concorde::cli {

/// `--program P` or `--all`, shared by the commands that work on a feature database's
/// programs (predict, shapley, phases).
struct ProgramSelection {
    std::optional<std::string> program;
    bool all = false;

    /// Declares --program and --all on `app` (one excludes the other).
    void addTo(CLI::App& app);
    /// The programs asked for: {P}, or none for every program. A usage error unless one of the
    /// two options was given.
    std::vector<std::string> requested() const;
};

} // namespace concorde::cli
