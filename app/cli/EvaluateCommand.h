#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde evaluate (--dataset FILE --db DB | --db DB) [--model-from DB2] [--json] [--record]`:
/// the CPI model's accuracy against reference labels, with the two baselines.
class EvaluateCommand : public Command {
public:
    std::string name() const override { return "evaluate"; }
    std::string summary() const override {
        return "measure the CPI model against reference-simulator labels";
    }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
