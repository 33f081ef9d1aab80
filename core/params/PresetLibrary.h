#pragma once

#include "params/Preset.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace concorde {

/// The presets available to a user: the shipped ones (resources/presets) and the user's own
/// (in $XDG_CONFIG_HOME/concorde/presets). Later directories override earlier ones by name.
class PresetLibrary {
public:
    /// Loads every *.json in each existing directory, in order. A malformed file is an error.
    static PresetLibrary loadFrom(const std::vector<std::filesystem::path>& directories);
    /// The shipped presets directory, then the user directory (see shippedPresetDirectory()).
    static PresetLibrary loadDefault();

    /// The shipped presets: $CONCORDE_PRESETS_DIR if set, else share/concorde/presets next to the
    /// running executable's bin/ (true in the build tree and after install).
    static std::filesystem::path shippedPresetDirectory();
    static std::filesystem::path userPresetDirectory();

    const std::vector<Preset>& presets() const { return presets_; }
    const Preset* find(const std::string& name) const;
    /// Like find() but throws a bad-input error listing the known names.
    const Preset& require(const std::string& name) const;
    std::string nameList() const;

private:
    std::vector<Preset> presets_;
};

} // namespace concorde
