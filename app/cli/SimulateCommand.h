#pragma once

#include "Command.h"
#include "TraceWorkload.h"

namespace concorde::cli {

/// `concorde simulate TRACE [--preset P] [--set k=v ...] [--region I] [--json]`
class SimulateCommand : public Command {
public:
    std::string name() const override { return "simulate"; }
    std::string summary() const override { return "run the reference cycle-level simulator"; }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    TraceWorkload workload_;
    bool json_ = false;
};

} // namespace concorde::cli
