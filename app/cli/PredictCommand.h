#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde predict --db DB (--program P | --all) [--preset P] [--set k=v ...] [--json]`:
/// the model's CPI for a program (and each of its regions) at a configuration.
class PredictCommand : public Command {
public:
    std::string name() const override { return "predict"; }
    std::string summary() const override {
        return "predict a program's CPI for a configuration (microseconds)";
    }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
