#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace concorde::cli {

/// One `concorde SUBCOMMAND`. A command declares each of its options once, on a CLI11 app
/// (name, type, default, range check and help text together, bound to the command's members);
/// CommandLine parses the arguments into them and writes the help from the same declarations.
/// run() then writes results to `out` and diagnostics to `err`, and reports failure by throwing
/// ConcordeError (whose kind decides the exit code) or by returning a non-zero code.
class Command {
public:
    virtual ~Command() = default;
    virtual std::string name() const = 0;
    /// One line for `concorde --help`.
    virtual std::string summary() const = 0;
    /// What the command does: the help text between the usage line and the options.
    virtual std::string description() const = 0;
    /// Text after the options in the help (examples, with their heading); may be empty.
    virtual std::string epilogue() const { return {}; }
    /// Declares the options and positional arguments on `app`.
    virtual void declare(CLI::App& app) = 0;
    /// For a command that takes words after "--" (trace: the program and its arguments), what
    /// the usage line calls them; empty when "--" only ends the options.
    virtual std::string wordsAfterDoubleDash() const { return {}; }
    /// The words after the first "--", exactly as given (the parser never sees them).
    virtual void takeWordsAfterDoubleDash(std::vector<std::string> /*words*/) {}
    /// Runs with the values parsed into the declared options.
    virtual int run(std::ostream& out, std::ostream& err) = 0;
};

} // namespace concorde::cli
