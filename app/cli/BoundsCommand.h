#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde bounds TRACE [--preset P] [--set k=v ...] [--region I] [--window W] [--json|--csv]`
class BoundsCommand : public Command {
public:
    std::string name() const override { return "bounds"; }
    std::string summary() const override { return "per-window analytical throughput bounds"; }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
