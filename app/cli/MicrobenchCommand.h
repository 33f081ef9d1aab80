#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde microbench NAME [--iterations N] [--param KEY=VALUE]... -o FILE`: writes a
/// synthetic microbenchmark kernel (core/trace/synthetic) as a .ctrace;
/// `concorde microbench --list` lists the kernels with their parameters and defaults.
class MicrobenchCommand : public Command {
public:
    std::string name() const override { return "microbench"; }
    std::string summary() const override {
        return "generate a synthetic microbenchmark kernel as a .ctrace";
    }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
