#pragma once

#include "Command.h"
#include "ConfigOptions.h"
#include "ModelOption.h"
#include "ProgramSelection.h"

namespace concorde::cli {

/// `concorde predict --db DB (--program P | --all) [--preset P] [--set k=v ...] [--json]`:
/// the model's CPI for a program (and each of its regions) at a configuration.
class PredictCommand : public Command {
public:
    std::string name() const override { return "predict"; }
    std::string summary() const override {
        return "predict a program's CPI for a configuration (microseconds)";
    }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string db_;
    ProgramSelection programs_;
    ConfigOptions config_;
    ModelOption model_;
    bool json_ = false;
};

} // namespace concorde::cli
