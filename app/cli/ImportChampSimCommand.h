#pragma once

#include "Command.h"
#include "trace/champsim/ChampSimConverter.h"

namespace concorde::cli {

/// `concorde import-champsim FILE -o OUT.ctrace [--skip N] [--warmup W] [--length M]`
class ImportChampSimCommand : public Command {
public:
    std::string name() const override { return "import-champsim"; }
    std::string summary() const override { return "convert a ChampSim trace to .ctrace"; }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string input_;
    std::string output_;
    ChampSimConverter::ImportOptions options_;
};

} // namespace concorde::cli
