#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde shapley --db DB (--program P | --all) --baseline B --target T [--groups FILE]
/// [--permutations K] [--ablation-order k1,k2,...] [--json | --csv]`: Shapley attribution of the
/// model's CPI change from a baseline to a target configuration (DESIGN §9), per region and per
/// program, optionally next to an ordered one-at-a-time ablation.
class ShapleyCommand : public Command {
public:
    std::string name() const override { return "shapley"; }
    std::string summary() const override {
        return "attribute a CPI change to parameters or groups (Shapley values)";
    }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
