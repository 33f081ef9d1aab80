#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde validate-db DB`: checks everything in a feature database (DatabaseValidator);
/// exit code 1 with the list of problems, 0 when clean.
class ValidateDbCommand : public Command {
public:
    std::string name() const override { return "validate-db"; }
    std::string summary() const override { return "check a feature database completely"; }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string db_;
};

} // namespace concorde::cli
