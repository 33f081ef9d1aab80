#include "RecentFilesMenu.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace concorde::ui {

RecentFilesMenu::RecentFilesMenu(const QString& title, const QString& settingsKey, QWidget* parent)
    : QMenu(title, parent), settingsKey_(settingsKey) {
    setObjectName(QStringLiteral("menu_recent"));
    setToolTipsVisible(true);
    files_ = QSettings().value(settingsKey_).toStringList();
    while (files_.size() > kMaxFiles)
        files_.removeLast();
    rebuild();
}

void RecentFilesMenu::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files_.removeAll(absolute);
    files_.prepend(absolute);
    while (files_.size() > kMaxFiles)
        files_.removeLast();
    save();
    rebuild();
}

void RecentFilesMenu::clearFiles() {
    files_.clear();
    save();
    rebuild();
}

void RecentFilesMenu::save() const {
    QSettings().setValue(settingsKey_, files_);
}

void RecentFilesMenu::rebuild() {
    clear();
    for (int i = 0; i < files_.size(); ++i) {
        const QString path = files_[i];
        // "&1 default.sqlite": numbered for the keyboard, the full path in the tooltip.
        QAction* action = addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(
            QFileInfo(path).fileName().replace(QLatin1Char('&'), QLatin1String("&&"))));
        action->setObjectName(QStringLiteral("recent_%1").arg(i));
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setEnabled(QFileInfo::exists(path));
        connect(action, &QAction::triggered, this, [this, path] { emit fileChosen(path); });
    }
    if (files_.isEmpty()) {
        QAction* none = addAction(tr("No recent databases"));
        none->setObjectName(QStringLiteral("recent_none"));
        none->setEnabled(false);
        return;
    }
    addSeparator();
    addAction(tr("&Clear list"), this, &RecentFilesMenu::clearFiles)
        ->setObjectName(QStringLiteral("recent_clear"));
}

} // namespace concorde::ui
