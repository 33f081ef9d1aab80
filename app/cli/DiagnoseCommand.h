#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde diagnose [--json] [--group G ...]`: DiagSim-style validation of the simulator.
class DiagnoseCommand : public Command {
public:
    std::string name() const override { return "diagnose"; }
    std::string summary() const override {
        return "check the simulator against synthetic kernels (DiagSim)";
    }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
