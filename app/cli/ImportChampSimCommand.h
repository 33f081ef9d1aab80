#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde import-champsim FILE -o OUT.ctrace [--skip N] [--warmup W] [--length M]`
class ImportChampSimCommand : public Command {
public:
    std::string name() const override { return "import-champsim"; }
    std::string summary() const override { return "convert a ChampSim trace to .ctrace"; }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
