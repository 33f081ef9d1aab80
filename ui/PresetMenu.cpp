#include "PresetMenu.h"

#include "Session.h"
#include "params/PresetLibrary.h"

#include <QActionGroup>
#include <QDateTime>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QRegularExpression>
#include <filesystem>

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
    targetEnd_ = addSeparator();

    baselineMenu_ = addMenu(tr("Set as &baseline"));
    baselineMenu_->setObjectName(QStringLiteral("menu_baseline"));
    baselineMenu_->setToolTipsVisible(true);
    addPresetActions(baselineMenu_, baselineGroup_, QStringLiteral("baseline_"), true);
    baselineEnd_ = baselineMenu_->addSeparator();
    QAction* fromTarget = baselineMenu_->addAction(tr("Current target"));
    fromTarget->setObjectName(QStringLiteral("baseline_from_target"));
    fromTarget->setToolTip(tr("Compare against the configuration the sliders show now."));
    connect(fromTarget, &QAction::triggered, this,
            [this] { session_.setBaseline(session_.config()); });

    QAction* save =
        addAction(tr("&Save the sliders as a preset…"), this, &PresetMenu::askAndSavePreset);
    save->setObjectName(QStringLiteral("action_save_preset"));
    save->setToolTip(tr("Name the current configuration, to choose it again as target or "
                        "baseline (e.g. two candidate cores for the A/B tab)."));

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
    for (std::size_t i = 0; i < presets_.size(); ++i)
        addPresetAction(menu, nullptr, group, prefix, baseline, i);
}

void PresetMenu::addPresetAction(QMenu* menu, QAction* before, QActionGroup* group,
                                 const QString& prefix, bool baseline, std::size_t index) {
    const QString name = QString::fromStdString(presets_[index].name);
    auto* action = new QAction(name, menu);
    menu->insertAction(before, action); // appended when `before` is null
    action->setObjectName(prefix + name);
    action->setToolTip(QString::fromStdString(presets_[index].description));
    action->setCheckable(true);
    action->setData(static_cast<int>(index));
    group->addAction(action);
    connect(action, &QAction::triggered, this, [this, index, baseline] {
        if (baseline)
            session_.applyPresetAsBaseline(presets_[index]);
        else
            session_.applyPreset(presets_[index]);
        updateChecks(); // re-choosing the current preset emits nothing but unchecks it
    });
}

QString PresetMenu::savePreset(const QString& name) {
    static const QRegularExpression allowed(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$"));
    if (!allowed.match(name).hasMatch())
        return tr("A preset name is 1–64 letters, digits, '.', '_', '+' or '-', starting with a "
                  "letter or digit.");
    for (const Preset& preset : presets_)
        if (preset.name == name.toStdString())
            return tr("There is already a preset named %1.").arg(name);
    const std::filesystem::path directory = PresetLibrary::userPresetDirectory();
    if (directory.empty())
        return tr("No folder for user presets: set HOME or XDG_CONFIG_HOME.");
    Preset preset;
    preset.name = name.toStdString();
    preset.description = tr("Saved from the explorer on %1")
                             .arg(QDateTime::currentDateTime().toString(Qt::ISODate))
                             .toStdString();
    preset.config = session_.config();
    try {
        std::filesystem::create_directories(directory);
        preset.save(directory / (preset.name + ".json"));
    } catch (const std::exception& e) {
        return tr("Cannot save the preset: %1").arg(QString::fromLocal8Bit(e.what()));
    }
    presets_.push_back(preset);
    const std::size_t index = presets_.size() - 1;
    session_.addSavedPreset(preset); // the header, status bar and A/B page name it at once
    for (QAction* none : findChildren<QAction*>(QRegularExpression(QStringLiteral("_none$"))))
        none->setVisible(false); // "No presets found" no longer holds
    addPresetAction(this, targetEnd_, targetGroup_, QStringLiteral("preset_"), false, index);
    addPresetAction(baselineMenu_, baselineEnd_, baselineGroup_, QStringLiteral("baseline_"), true,
                    index);
    updateChecks();
    return {};
}

void PresetMenu::askAndSavePreset() {
    bool ok = false;
    const QString name =
        QInputDialog::getText(parentWidget(), tr("Save the sliders as a preset"),
                              tr("Name of the new preset:"), QLineEdit::Normal, QString(), &ok)
            .trimmed();
    if (!ok || name.isEmpty())
        return;
    const QString problem = savePreset(name);
    if (!problem.isEmpty())
        QMessageBox::warning(parentWidget(), tr("Preset not saved"), problem);
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
