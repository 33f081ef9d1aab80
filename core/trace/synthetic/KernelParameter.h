#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace concorde::synthetic {

/// Declaration of one kernel parameter (`--param key=value`): either a whole number with an
/// inclusive range, or one word out of a fixed list of choices.
struct KernelParameter {
    std::string key;
    std::string description;
    std::uint64_t defaultNumber = 0;
    std::uint64_t min = 0;
    std::uint64_t max = 0;
    std::vector<std::string> choices; ///< non-empty for a choice parameter
    std::string defaultChoice;

    static KernelParameter number(std::string key, std::string description,
                                  std::uint64_t defaultValue, std::uint64_t min, std::uint64_t max);
    static KernelParameter choice(std::string key, std::string description,
                                  std::string defaultValue, std::vector<std::string> choices);

    bool isChoice() const { return !choices.empty(); }
    /// The default as it would be written on the command line.
    std::string defaultText() const;
    /// "1–4096" or "int-alu, int-mul, ..." for help text and error messages.
    std::string allowedText() const;
};

} // namespace concorde::synthetic
