#pragma once

#include "Command.h"
#include "ModelOption.h"

#include <cstdint>
#include <string>
#include <vector>

namespace concorde::cli {

/// `concorde check-monotone --db DB [--model-from DB2] [--bases N] [--seed S] [--tolerance PCT]
/// [--program P ...] [--json]`: does the CPI model ever predict a slower core for a bigger one?
/// Exits 1 when it does.
class CheckMonotoneCommand : public Command {
public:
    std::string name() const override { return "check-monotone"; }
    std::string summary() const override {
        return "check that growing a resource never raises the predicted CPI";
    }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string db_;
    ModelOption model_;
    std::size_t bases_ = 200;
    std::uint64_t seed_ = 1;
    double tolerancePct_ = 0.5;
    std::vector<std::string> programs_;
    bool json_ = false;
};

} // namespace concorde::cli
