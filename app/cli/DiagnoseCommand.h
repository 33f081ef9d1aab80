#pragma once

#include "Command.h"

#include <vector>

namespace concorde::cli {

/// `concorde diagnose [--json] [--group G ...]`: DiagSim-style validation of the simulator.
class DiagnoseCommand : public Command {
public:
    std::string name() const override { return "diagnose"; }
    std::string summary() const override {
        return "check the simulator against synthetic kernels (DiagSim)";
    }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::vector<std::string> groups_;
    bool json_ = false;
};

} // namespace concorde::cli
