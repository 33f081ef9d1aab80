#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde migrate-db DB`: upgrades a feature database to this build's schema version.
class MigrateDbCommand : public Command {
public:
    std::string name() const override { return "migrate-db"; }
    std::string summary() const override {
        return "upgrade a feature database to the current schema";
    }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string db_;
};

} // namespace concorde::cli
