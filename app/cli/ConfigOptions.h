#pragma once

#include "ArgParser.h"
#include "params/CoreConfig.h"

#include <string>

namespace concorde::cli {

/// The configuration options every simulating or predicting command shares:
/// `--preset NAME` (shipped or user preset) then any number of `--set key=value` on top.
struct ConfigOptions {
    CoreConfig config;
    std::string presetName; ///< empty when no preset was given

    /// Consumes --preset and --set from `parser`. Errors name the key or preset.
    static ConfigOptions take(ArgParser& parser);
    /// Help text for the two options, for commands' help().
    static const char* helpText();
};

} // namespace concorde::cli
