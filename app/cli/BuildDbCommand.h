#pragma once

#include "Command.h"
#include "pipeline/DatabaseBuilder.h"

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
    std::string description() const override;
    std::string epilogue() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string output_;
    std::string grid_ = "default";
    std::vector<std::string> traces_;
    DatabaseBuilder::Options options_;
};

} // namespace concorde::cli
