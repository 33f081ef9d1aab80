#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace concorde::synthetic {

/// The resolved, validated parameter values of one kernel instance: every declared parameter
/// is present (defaults filled in), in declaration order. Built by MicrobenchKernel::resolve().
class KernelParams {
public:
    /// Adds a value; used by MicrobenchKernel::resolve() after validation.
    void setNumber(const std::string& key, std::uint64_t value);
    void setChoice(const std::string& key, const std::string& value);

    /// The value of a number parameter. Asking for an undeclared key is a programming error
    /// (std::logic_error), not a user error: resolve() has already rejected unknown keys.
    std::uint64_t number(const std::string& key) const;
    /// The value of a choice parameter (same contract as number()).
    const std::string& choice(const std::string& key) const;

    /// (key, value as text) in declaration order, for provenance and command lines.
    std::vector<std::pair<std::string, std::string>> entries() const;

private:
    struct Entry {
        std::string key;
        std::string text;
        std::uint64_t number = 0;
        bool isChoice = false;
    };
    const Entry& find(const std::string& key) const;

    std::vector<Entry> entries_;
};

} // namespace concorde::synthetic
