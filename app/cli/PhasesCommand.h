#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde phases --db DB (--program P | --all) [--max-k K] [--seed S] [--json]`: clusters each
/// program's regions into phases (SimPoint-style, DatabasePhases) and stores them in the
/// database's regions.phase column.
class PhasesCommand : public Command {
public:
    std::string name() const override { return "phases"; }
    std::string summary() const override {
        return "cluster each program's regions into phases and store them";
    }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
