#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde export-champsim IN.ctrace -o FILE.champsimtrace.xz`
class ExportChampSimCommand : public Command {
public:
    std::string name() const override { return "export-champsim"; }
    std::string summary() const override { return "convert a .ctrace to a ChampSim trace"; }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
