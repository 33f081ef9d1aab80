#pragma once

#include "Command.h"
#include "ModelOption.h"
#include "ProgramSelection.h"
#include "attribution/ShapleyAttributor.h"

#include <optional>

namespace concorde::cli {

/// `concorde shapley --db DB (--program P | --all) --baseline B --target T [--groups FILE]
/// [--permutations K] [--ablation-order k1,k2,...] [--json | --csv]`: Shapley attribution of the
/// model's CPI change from a baseline to a target configuration (docs/design.md §9), per region and
/// per program, optionally next to an ordered one-at-a-time ablation.
class ShapleyCommand : public Command {
public:
    std::string name() const override { return "shapley"; }
    std::string summary() const override {
        return "attribute a CPI change to parameters or groups (Shapley values)";
    }
    std::string description() const override;
    std::string epilogue() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string db_;
    ProgramSelection programs_;
    std::string baseline_;
    std::string target_;
    std::optional<std::string> groups_;
    std::optional<std::string> ablation_;
    unsigned jobs_ = 0;
    ShapleyAttributor::Options options_;
    ModelOption model_;
    bool json_ = false;
    bool csv_ = false;
};

} // namespace concorde::cli
