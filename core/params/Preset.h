#pragma once

#include "params/CoreConfig.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace concorde {

/// A named configuration with a description and, per parameter, where its value comes from.
struct Preset {
    std::string name;
    std::string description;
    CoreConfig config;
    std::map<std::string, std::string> sources; ///< key → public source or rationale

    /// Reads a preset JSON file: {"name", "description", "parameters": {...}, "sources": {...}}.
    /// All twenty parameters must be present. Errors name the file.
    static Preset load(const std::filesystem::path& file);
    /// Writes the preset atomically (temporary file + rename).
    void save(const std::filesystem::path& file) const;
};

/// The name of the first of `presets` whose configuration equals `config`; empty when none
/// does. What the explorer calls a target or baseline ("n1-like", else "custom").
std::string presetNameFor(const std::vector<Preset>& presets, const CoreConfig& config);

} // namespace concorde
