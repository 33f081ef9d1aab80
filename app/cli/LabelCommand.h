#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde label --db DB [--configs N] [--presets] [--seed S] [--jobs N] [--shard I/N]`:
/// reference-simulator labels for the regions of a feature database (RegionLabeler).
class LabelCommand : public Command {
public:
    std::string name() const override { return "label"; }
    std::string summary() const override {
        return "add reference-simulator CPI labels to a feature database";
    }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
