#pragma once

#include "params/CoreConfig.h"

namespace concorde::ui {

/// The target and baseline the interactive explorer last ended with, kept in the application's
/// QSettings (group "lastConfiguration", each as the parameters' JSON), so that the next start
/// reopens them instead of the default presets. The command line's --preset, --set and
/// --baseline take precedence (app/explorer/main.cpp decides).
class LastConfiguration {
public:
    static void save(const CoreConfig& target, const CoreConfig& baseline);
    /// Reads both into `target` and `baseline`; false, leaving them untouched, when none is
    /// stored or what is stored no longer reads (an unknown key, a value out of range).
    static bool load(CoreConfig& target, CoreConfig& baseline);
};

} // namespace concorde::ui
