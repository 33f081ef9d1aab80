#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde train --dataset FILE --db DB [options]`: trains the CPI model on a dataset's train
/// split and stores it, with its measured accuracy, in a feature database (ModelTraining).
class TrainCommand : public Command {
public:
    std::string name() const override { return "train"; }
    std::string summary() const override { return "train the CPI model on a dataset"; }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
