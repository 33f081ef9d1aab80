#include "ConfigOptions.h"

#include <CLI/CLI.hpp>
#include <iostream>

namespace concorde::cli {

void ConfigOptions::addTo(CLI::App& app) {
    app.add_option_function<std::string>(
           "--preset",
           [this](const std::string& name) {
               config = loadPresets().require(name).config;
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

PresetLibrary ConfigOptions::loadPresets() {
    PresetLibrary library = PresetLibrary::loadDefault();
    for (const auto& bad : library.rejected())
        std::cerr << "concorde: warning: preset file skipped: " << bad.message << "\n";
    return library;
}

} // namespace concorde::cli
