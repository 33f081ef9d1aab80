#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde merge-db --out ALL.sqlite SHARDS...`: combines the databases of `build-db --shard`
/// and `label --shard` runs (DatabaseMerger).
class MergeDbCommand : public Command {
public:
    std::string name() const override { return "merge-db"; }
    std::string summary() const override { return "merge sharded feature databases"; }
    std::string description() const override;
    std::string epilogue() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string output_;
    std::vector<std::string> shards_;
};

} // namespace concorde::cli
