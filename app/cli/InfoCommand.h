#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde info FILE [--json]`: what a trace contains (instruction count, class mix,
/// load/store/branch fractions, regions), or what a feature database holds (DatabaseInfo).
class InfoCommand : public Command {
public:
    std::string name() const override { return "info"; }
    std::string summary() const override { return "describe a .ctrace file or a feature database"; }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string file_;
    bool json_ = false;
};

} // namespace concorde::cli
