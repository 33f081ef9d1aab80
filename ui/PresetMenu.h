#pragma once

#include "params/Preset.h"

#include <QMenu>
#include <vector>

class QActionGroup;

namespace concorde {
class PresetLibrary;
}

namespace concorde::ui {

class Session;

/// The "Presets" menu: one entry per preset (choosing it makes it the target), then a
/// "Set as baseline" submenu with the same presets plus the current target. The entry whose
/// configuration equals the current target (or baseline) is checked, so the menu also tells the
/// user which preset they are on. Actions are named "preset_<name>" and "baseline_<name>".
class PresetMenu : public QMenu {
    Q_OBJECT

public:
    PresetMenu(Session& session, const PresetLibrary& presets, QWidget* parent = nullptr);

    /// The "Set as baseline" submenu.
    QMenu* baselineMenu() const { return baselineMenu_; }

    /// Saves the sliders' configuration as the user preset `name` (in
    /// PresetLibrary::userPresetDirectory(), written atomically) and offers it in both menus at
    /// once, so that two candidate cores can be compared by name. Returns why it could not (a
    /// malformed or taken name, an unwritable folder); empty on success.
    QString savePreset(const QString& name);

private:
    void addPresetActions(QMenu* menu, QActionGroup* group, const QString& prefix, bool baseline);
    void addPresetAction(QMenu* menu, QAction* before, QActionGroup* group, const QString& prefix,
                         bool baseline, std::size_t index);
    void askAndSavePreset();
    void updateChecks();

    Session& session_;
    std::vector<Preset> presets_; // a copy: the menu must not outlive a library it points into
    QMenu* baselineMenu_ = nullptr;
    QAction* targetEnd_ = nullptr;   ///< new target entries go before it
    QAction* baselineEnd_ = nullptr; ///< new baseline entries go before it
    QActionGroup* targetGroup_ = nullptr;
    QActionGroup* baselineGroup_ = nullptr;
};

} // namespace concorde::ui
