#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde merge-dataset --out ALL.dataset SHARDS...`: joins the files of `dataset --shard`
/// runs into the one-machine dataset (DatasetMerger).
class MergeDatasetCommand : public Command {
public:
    std::string name() const override { return "merge-dataset"; }
    std::string summary() const override { return "merge sharded dataset files"; }
    std::string description() const override;
    std::string epilogue() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string output_;
    std::vector<std::string> shards_;
};

} // namespace concorde::cli
