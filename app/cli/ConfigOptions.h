#pragma once

#include "params/CoreConfig.h"
#include "params/PresetLibrary.h"

#include <string>

namespace CLI {
class App;
}

namespace concorde::cli {

/// The configuration options every simulating or predicting command shares:
/// `--preset NAME` (shipped or user preset) then any number of `--set key=value` on top.
struct ConfigOptions {
    CoreConfig config;
    std::string presetName; ///< empty when no preset was given

    /// Declares --preset and --set on `app`. Once parsed, `config` is the preset (or the
    /// defaults) with every assignment applied; errors name the key or preset.
    void addTo(CLI::App& app);

    /// PresetLibrary::loadDefault() with a warning on stderr for every preset file skipped as
    /// malformed: every command that reads presets goes through this.
    static PresetLibrary loadPresets();
};

} // namespace concorde::cli
