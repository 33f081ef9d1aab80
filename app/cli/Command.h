#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace concorde::cli {

/// One `concorde SUBCOMMAND`. Commands parse their own arguments with ArgParser, write results
/// to `out` and diagnostics to `err`, and report failure by throwing ConcordeError (whose kind
/// decides the exit code) or by returning a non-zero code.
class Command {
public:
    virtual ~Command() = default;
    virtual std::string name() const = 0;
    /// One line for `concorde --help`.
    virtual std::string summary() const = 0;
    /// Full text for `concorde help NAME`: synopsis, options, examples.
    virtual std::string help() const = 0;
    virtual int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) = 0;
};

} // namespace concorde::cli
