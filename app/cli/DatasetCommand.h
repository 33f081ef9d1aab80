#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde dataset (--db DB | --traces T...) --samples N --out FILE [--seed S] [--jobs N]
/// [--hold-out P...]`: random (region, configuration) samples with features and reference CPI
/// labels (DatasetBuilder).
class DatasetCommand : public Command {
public:
    std::string name() const override { return "dataset"; }
    std::string summary() const override {
        return "draw training samples: features and reference-simulator CPI";
    }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
