#pragma once

#include <optional>
#include <string>
#include <vector>

namespace concorde::cli {

/// A small argument parser in the style "ask for what you accept, then reject the rest":
/// each take*() call consumes its option wherever it appears; finish() turns any leftover
/// option into a usage error. Supports "--name value" and "--name=value"; "--" ends options.
class ArgParser {
public:
    explicit ArgParser(std::vector<std::string> args);

    /// True if the flag is present (consumed).
    bool takeFlag(const std::string& name);
    /// The value of a single-valued option; a usage error if given twice or without a value.
    std::optional<std::string> takeValue(const std::string& name);
    /// All values of a repeatable option, in order.
    std::vector<std::string> takeValues(const std::string& name);
    /// An unsigned integer option with a default, range-checked.
    std::uint64_t takeUnsigned(const std::string& name, std::uint64_t fallback,
                               std::uint64_t min = 0, std::uint64_t max = UINT64_MAX);
    /// A real-number option with a default, range-checked.
    double takeDouble(const std::string& name, double fallback, double min, double max);
    /// Everything after a literal "--" (removed from the remaining arguments).
    std::vector<std::string> takeAfterDoubleDash();

    /// Remaining non-option arguments; throws a usage error on any unconsumed "-x"/"--x".
    std::vector<std::string> finish();

private:
    std::vector<std::string> args_;
    std::vector<std::string> afterDash_;
};

} // namespace concorde::cli
