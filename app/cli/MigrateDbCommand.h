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
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
