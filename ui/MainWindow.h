#pragma once

#include <QMainWindow>

class QLabel;
class QStackedWidget;
class QTabWidget;

namespace concorde {
class PresetLibrary;
}

namespace concorde::ui {

class EmptyStatePage;
class ParameterPanel;
class Session;

/// The explorer window: the parameter panel docked on the left, the views in the centre, menus
/// and a status bar. It only assembles widgets and menus; state lives in the Session.
///
/// The centre shows an empty state explaining how to get a feature database until one is open;
/// then it shows the view tabs ("Throughput CDFs", "Bound timeseries", "Shapley attribution",
/// "Phases").
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    MainWindow(Session& session, const PresetLibrary& presets, QWidget* parent = nullptr);

    /// Asks to open the feature database at `path`. Feature databases cannot be read yet (that
    /// arrives with core/store): an existing file is recorded in the Session and the status bar
    /// says it was not loaded; a missing file is reported and nothing changes.
    void openDatabase(const QString& path);

private:
    void buildCentralArea();
    void buildMenus(const PresetLibrary& presets);
    void buildStatusBar(const PresetLibrary& presets);
    void showDatabaseState();
    void chooseDatabase();
    void showAbout();

    Session& session_;
    ParameterPanel* panel_ = nullptr;
    QStackedWidget* centre_ = nullptr;
    EmptyStatePage* noDatabasePage_ = nullptr;
    QTabWidget* views_ = nullptr;
    QLabel* databaseLabel_ = nullptr;
};

} // namespace concorde::ui
