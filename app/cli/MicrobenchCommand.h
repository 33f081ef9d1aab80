#pragma once

#include "Command.h"

#include <cstdint>
#include <optional>

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
    std::string description() const override;
    std::string epilogue() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::optional<std::string> kernel_;
    std::vector<std::string> params_;
    std::uint64_t iterations_ = 0; ///< 0: the kernel's default
    std::optional<std::string> output_;
    bool list_ = false;
};

} // namespace concorde::cli
