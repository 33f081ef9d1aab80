#pragma once

#include <QMenu>
#include <QStringList>

namespace concorde::ui {

/// "Open recent": the databases opened last, newest first, kept in QSettings under
/// `settingsKey` so they survive restarts. Choosing one emits fileChosen(); "Clear list" empties
/// it. Actions are named "recent_0", "recent_1"... Files that no longer exist are shown disabled.
class RecentFilesMenu : public QMenu {
    Q_OBJECT

public:
    static constexpr int kMaxFiles = 8;

    RecentFilesMenu(const QString& title, const QString& settingsKey, QWidget* parent = nullptr);

    /// Puts `path` (made absolute) first, dropping an older entry of it and the oldest beyond
    /// kMaxFiles, and saves the list.
    void add(const QString& path);
    QStringList files() const { return files_; }
    void clearFiles();

signals:
    void fileChosen(const QString& path);

private:
    void rebuild();
    void save() const;

    QString settingsKey_;
    QStringList files_;
};

} // namespace concorde::ui
