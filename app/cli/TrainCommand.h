#pragma once

#include "Command.h"
#include "ml/MlpTrainer.h"
#include "pipeline/ModelTraining.h"

namespace concorde::cli {

/// `concorde train --dataset FILE --db DB [options]`: trains the CPI model on a dataset's train
/// split and stores it, with its measured accuracy, in a feature database (ModelTraining).
class TrainCommand : public Command {
public:
    std::string name() const override { return "train"; }
    std::string summary() const override { return "train the CPI model on a dataset"; }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::vector<std::string> datasets_;
    std::string db_;
    std::string name_ = "cpi";
    TrainingOptions options_;
    ModelTraining::EnsembleOptions ensemble_;
    std::string output_ = "direct";
    std::string floor_ = "bottleneck";
    std::vector<int> composed_; ///< --composed UNITS,OUTPUTS
    bool json_ = false;
};

} // namespace concorde::cli
