#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde export-champsim IN.ctrace -o FILE.champsimtrace.xz [--cold]`
class ExportChampSimCommand : public Command {
public:
    std::string name() const override { return "export-champsim"; }
    std::string summary() const override { return "convert a .ctrace to a ChampSim trace"; }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string input_;
    std::string output_;
    bool cold_ = false; ///< leave out the warm-state replay
};

} // namespace concorde::cli
