#include "ConfigOptions.h"

#include "params/PresetLibrary.h"

#include <CLI/CLI.hpp>

namespace concorde::cli {

void ConfigOptions::addTo(CLI::App& app) {
    app.add_option_function<std::string>(
           "--preset",
           [this](const std::string& name) {
               config = PresetLibrary::loadDefault().require(name).config;
               presetName = name;
           },
           "start from a preset (big, n1-like, little, or your own)")
        ->type_name("NAME");
    // Declared after --preset because CLI11 runs the callbacks in declaration order: the
    // assignments apply on top of the preset wherever they stand on the command line.
    app.add_option_function<std::vector<std::string>>(
           "--set",
           [this](const std::vector<std::string>& assignments) {
               for (const auto& assignment : assignments)
                   config.applyAssignment(assignment);
           },
           "set one parameter, e.g. --set rob=256 --set bp=tage")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
}

} // namespace concorde::cli
