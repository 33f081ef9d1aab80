#pragma once

#include "Command.h"

namespace concorde::cli {

/// `concorde trace -o OUT.ctrace [--skip N] [--length M] [--warmup W] [--regions K --interval I]
///  -- PROGRAM ARGS...`: runs PROGRAM under the ctrace Valgrind tool and writes a .ctrace.
class TraceCommand : public Command {
public:
    std::string name() const override { return "trace"; }
    std::string summary() const override { return "trace a real x86-64 program (Valgrind tool)"; }
    std::string help() const override;
    int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) override;
};

} // namespace concorde::cli
