#pragma once

#include "Command.h"
#include "pipeline/DatasetBuilder.h"

#include <optional>

namespace concorde::cli {

/// `concorde dataset (--db DB | --traces T...) --samples N --out FILE [--seed S] [--jobs N]
/// [--hold-out P...] [--shard I/N]`: random (region, configuration) samples with features and
/// reference CPI labels (DatasetBuilder).
class DatasetCommand : public Command {
public:
    std::string name() const override { return "dataset"; }
    std::string summary() const override {
        return "draw training samples: features and reference-simulator CPI";
    }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::vector<std::string> traces_;
    std::optional<std::string> db_;
    std::string output_;
    std::string grid_ = "default";
    std::optional<std::string> labelsFrom_;
    std::vector<std::string> holdOut_;
    DatasetBuilder::Options options_;
};

} // namespace concorde::cli
