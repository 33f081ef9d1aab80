#include "Session.h"

#include "params/Preset.h"
#include "params/PresetLibrary.h"

namespace concorde::ui {

Session::Session(QObject* parent) : QObject(parent) {}

Session::Session(const CoreConfig& target, const CoreConfig& baseline, QObject* parent)
    : QObject(parent), config_(target), baseline_(baseline) {}

CoreConfig Session::defaultBaseline(const PresetLibrary& presets) {
    if (const Preset* big = presets.find("big"))
        return big->config;
    return CoreConfig{};
}

void Session::setConfig(const CoreConfig& config) {
    if (config == config_)
        return;
    config_ = config;
    emit configChanged(config_);
}

void Session::setParameter(ParamId id, double value) {
    // Validate on a copy so a rejected value leaves the session untouched.
    CoreConfig next = config_;
    next.set(id, value);
    setConfig(next);
}

void Session::applyPreset(const Preset& preset) {
    setConfig(preset.config);
}

void Session::setBaseline(const CoreConfig& baseline) {
    if (baseline == baseline_)
        return;
    baseline_ = baseline;
    emit baselineChanged(baseline_);
}

void Session::applyPresetAsBaseline(const Preset& preset) {
    setBaseline(preset.config);
}

void Session::setDatabasePath(const QString& path) {
    if (path == databasePath_)
        return;
    databasePath_ = path;
    emit databasePathChanged(databasePath_);
}

} // namespace concorde::ui
