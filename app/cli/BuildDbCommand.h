#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde build-db --out DB [--grid G] [--jobs N] [--window W] [--shard I/N] TRACES...`:
/// computes every analytical series of the grid for every region of the traces into an SQLite
/// feature database (DatabaseBuilder), resumably.
class BuildDbCommand : public Command {
public:
    std::string name() const override { return "build-db"; }
    std::string summary() const override {
        return "build (or resume) a feature database from traces";
    }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
