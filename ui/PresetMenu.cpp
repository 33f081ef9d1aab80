#include "PresetMenu.h"

#include "Session.h"
#include "params/PresetLibrary.h"

#include <QActionGroup>

namespace concorde::ui {

PresetMenu::PresetMenu(Session& session, const PresetLibrary& presets, QWidget* parent)
    : QMenu(tr("&Presets"), parent), session_(session), presets_(presets.presets()) {
    setObjectName(QStringLiteral("menu_presets"));
    setToolTipsVisible(true);

    targetGroup_ = new QActionGroup(this);
    baselineGroup_ = new QActionGroup(this);
    // At most one entry is checked, and none when the configuration matches no preset.
    targetGroup_->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    baselineGroup_->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);

    addPresetActions(this, targetGroup_, QStringLiteral("preset_"), false);
    addSeparator();

    baselineMenu_ = addMenu(tr("Set as &baseline"));
    baselineMenu_->setObjectName(QStringLiteral("menu_baseline"));
    baselineMenu_->setToolTipsVisible(true);
    addPresetActions(baselineMenu_, baselineGroup_, QStringLiteral("baseline_"), true);
    baselineMenu_->addSeparator();
    QAction* fromTarget = baselineMenu_->addAction(tr("Current target"));
    fromTarget->setObjectName(QStringLiteral("baseline_from_target"));
    fromTarget->setToolTip(tr("Compare against the configuration the sliders show now."));
    connect(fromTarget, &QAction::triggered, this,
            [this] { session_.setBaseline(session_.config()); });

    updateChecks();
    connect(&session_, &Session::configChanged, this, &PresetMenu::updateChecks);
    connect(&session_, &Session::baselineChanged, this, &PresetMenu::updateChecks);
}

void PresetMenu::addPresetActions(QMenu* menu, QActionGroup* group, const QString& prefix,
                                  bool baseline) {
    if (presets_.empty()) {
        QAction* none = menu->addAction(tr("No presets found"));
        none->setObjectName(prefix + QStringLiteral("none"));
        none->setEnabled(false);
        return;
    }
    for (std::size_t i = 0; i < presets_.size(); ++i) {
        const QString name = QString::fromStdString(presets_[i].name);
        QAction* action = menu->addAction(name);
        action->setObjectName(prefix + name);
        action->setToolTip(QString::fromStdString(presets_[i].description));
        action->setCheckable(true);
        action->setData(static_cast<int>(i));
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, i, baseline] {
            if (baseline)
                session_.applyPresetAsBaseline(presets_[i]);
            else
                session_.applyPreset(presets_[i]);
            updateChecks(); // re-choosing the current preset emits nothing but unchecks it
        });
    }
}

void PresetMenu::updateChecks() {
    const auto sync = [this](QActionGroup* group, const CoreConfig& config) {
        for (QAction* action : group->actions()) {
            const auto& preset = presets_[static_cast<std::size_t>(action->data().toInt())];
            action->setChecked(preset.config == config);
        }
    };
    sync(targetGroup_, session_.config());
    sync(baselineGroup_, session_.baseline());
}

} // namespace concorde::ui
