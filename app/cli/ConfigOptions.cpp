#include "ConfigOptions.h"

#include "params/PresetLibrary.h"

namespace concorde::cli {

ConfigOptions ConfigOptions::take(ArgParser& parser) {
    ConfigOptions options;
    if (const auto preset = parser.takeValue("--preset")) {
        options.config = PresetLibrary::loadDefault().require(*preset).config;
        options.presetName = *preset;
    }
    for (const auto& assignment : parser.takeValues("--set"))
        options.config.applyAssignment(assignment);
    return options;
}

const char* ConfigOptions::helpText() {
    return "  --preset NAME     start from a preset (big, n1-like, little, or your own)\n"
           "  --set KEY=VALUE   set one parameter (repeatable), e.g. --set rob=256 --set bp=tage\n";
}

} // namespace concorde::cli
