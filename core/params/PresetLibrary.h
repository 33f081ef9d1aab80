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
    /// A preset file that could not be used, and why.
    struct Rejected {
        std::filesystem::path file;
        std::string message; ///< names the file and the field at fault
    };

    /// Loads every *.json in each existing directory, in order. A malformed file is skipped and
    /// listed in rejected(): one bad user preset must not break every command. It is an error
    /// only when asked for by name (require()).
    static PresetLibrary loadFrom(const std::vector<std::filesystem::path>& directories);
    /// The shipped presets directory, then the user directory (see shippedPresetDirectory()).
    static PresetLibrary loadDefault();

    /// The shipped presets: $CONCORDE_PRESETS_DIR if set, else share/concorde/presets next to the
    /// running executable's bin/ (true in the build tree and after install), else the first
    /// concorde/presets in $XDG_DATA_DIRS (default /usr/local/share:/usr/share).
    static std::filesystem::path shippedPresetDirectory();
    static std::filesystem::path userPresetDirectory();

    const std::vector<Preset>& presets() const { return presets_; }
    const Preset* find(const std::string& name) const;
    /// Like find() but throws a bad-input error: why NAME.json was rejected if it was, else the
    /// list of known names.
    const Preset& require(const std::string& name) const;
    std::string nameList() const;
    /// The files skipped by loadFrom(), in load order; callers show them as warnings.
    const std::vector<Rejected>& rejected() const { return rejected_; }

private:
    std::vector<Preset> presets_;
    std::vector<Rejected> rejected_;
};

} // namespace concorde
