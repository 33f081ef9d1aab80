#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde merge-db --out ALL.sqlite SHARDS...`: combines the databases of `build-db --shard`
/// and `label --shard` runs (DatabaseMerger).
class MergeDbCommand : public Command {
public:
    std::string name() const override { return "merge-db"; }
    std::string summary() const override { return "merge sharded feature databases"; }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
