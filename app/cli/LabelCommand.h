#pragma once

#include "Command.h"
#include "pipeline/RegionLabeler.h"

namespace concorde::cli {

/// `concorde label --db DB [--configs N] [--presets] [--seed S] [--jobs N] [--shard I/N]`:
/// reference-simulator labels for the regions of a feature database (RegionLabeler).
class LabelCommand : public Command {
public:
    std::string name() const override { return "label"; }
    std::string summary() const override {
        return "add reference-simulator CPI labels to a feature database";
    }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string db_;
    bool presets_ = false;
    RegionLabeler::Options options_;
};

} // namespace concorde::cli
