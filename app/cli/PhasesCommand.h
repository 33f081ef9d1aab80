#pragma once

#include "Command.h"
#include "ProgramSelection.h"
#include "pipeline/DatabasePhases.h"

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
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string db_;
    ProgramSelection programs_;
    DatabasePhases::Options options_;
    bool json_ = false;
};

} // namespace concorde::cli
