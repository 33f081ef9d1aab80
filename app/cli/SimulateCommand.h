#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde simulate TRACE [--preset P] [--set k=v ...] [--region I] [--json]`
class SimulateCommand : public Command {
public:
    std::string name() const override { return "simulate"; }
    std::string summary() const override { return "run the reference cycle-level simulator"; }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
