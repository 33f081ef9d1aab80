#pragma once

#include "Command.h"

#include <cstdint>

namespace concorde::cli {

/// `concorde trace -o OUT.ctrace [--skip N] [--length M] [--warmup W] [--regions K --interval I]
///  -- PROGRAM ARGS...`: runs PROGRAM under the ctrace Valgrind tool and writes a .ctrace.
class TraceCommand : public Command {
public:
    std::string name() const override { return "trace"; }
    std::string summary() const override { return "trace a real x86-64 program (Valgrind tool)"; }
    std::string description() const override;
    std::string wordsAfterDoubleDash() const override { return "PROGRAM [ARGS...]"; }
    void takeWordsAfterDoubleDash(std::vector<std::string> words) override {
        command_ = std::move(words);
    }
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    std::string output_;
    std::uint64_t skip_ = 0;
    std::uint64_t length_ = 0; ///< 0: to the end
    std::uint64_t warmup_ = 0;
    std::uint64_t functionalWarmup_ = 10'000'000; ///< 0: detailed warm-up only (cold regions)
    std::uint64_t regions_ = 1;
    std::uint64_t interval_ = 0;
    std::vector<std::string> command_;
};

} // namespace concorde::cli
