#pragma once

#include "Command.h"
#include "ModelOption.h"

#include <optional>

namespace concorde::cli {

/// `concorde evaluate (--dataset FILE --db DB | --db DB) [--model-from DB2] [--json] [--record |
/// --record-never-seen]`: the CPI model's accuracy against reference labels, with the two
/// baselines.
class EvaluateCommand : public Command {
public:
    std::string name() const override { return "evaluate"; }
    std::string summary() const override {
        return "measure the CPI model against reference-simulator labels";
    }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::optional<std::string> dataset_;
    std::optional<std::string> db_;
    ModelOption model_;
    bool json_ = false;
    bool record_ = false;
    bool recordNeverSeen_ = false;
};

} // namespace concorde::cli
