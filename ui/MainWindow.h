#pragma once

#include "ChartExportContext.h"
#include "params/Preset.h"

#include <QMainWindow>
#include <QRect>
#include <QStringList>
#include <vector>

class QAction;
class QShowEvent;
class QLabel;
class QStackedWidget;

namespace concorde {
class PresetLibrary;
}

namespace concorde::ui {

class ChartView;
class DatabaseLoadingPage;
class EmptyStatePage;
class ExplorerBounds;
class GuideDialog;
class ParameterHistory;
class ParameterPanel;
class PredictionHeader;
class RecentFilesMenu;
class Session;
class ViewTabs;

/// The explorer window: the parameter panel docked on the left, the prediction header and the
/// views in the centre, menus and a status bar. It only assembles widgets and menus and wires
/// them to the Session; state lives in the Session, logic in the small classes it assembles
/// (ParameterHistory, RecentFilesMenu, ThemeMenu, SessionFile, FileDropFilter).
///
/// The centre shows an empty state explaining how to get a feature database until one is open,
/// a progress page while one opens, then the header and the view tabs, one per ViewCatalog
/// entry (ViewTabs). A file dropped on the window opens (a database) or loads (a session .json).
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    MainWindow(Session& session, const PresetLibrary& presets, QWidget* parent = nullptr);

    /// Starts opening the feature database at `path` (see Session::openDatabase); a missing or
    /// unreadable file is reported in a message box and the status bar, and the window keeps
    /// whatever it had open.
    void openDatabase(const QString& path);
    /// Loads a saved session; errors are reported in a message box. Returns success.
    bool loadSession(const QString& path);
    /// Saves the session; errors are reported in a message box. Returns success.
    bool saveSession(const QString& path);

    ParameterHistory& history() const { return *history_; }
    /// The per-window bounds and drill-down shared by the chart pages.
    ExplorerBounds& bounds() const { return *bounds_; }
    /// The view tabs (one per ViewCatalog entry).
    ViewTabs& views() const { return *views_; }
    /// The chart of the current tab.
    ChartView* currentChart() const;

    /// File ▸ Export: writes the current tab's chart to `path`, in the format of its extension.
    /// Returns false with a message on failure.
    bool exportCurrentChart(const QString& path, QString* error = nullptr);
    /// Copies the current chart (image and CSV) to the clipboard.
    bool copyCurrentChart();
    /// "Export all for review": every view of the current state into `folder`, one file per view
    /// and format (PNG, SVG, PDF, CSV). `written` receives the paths.
    bool exportAllForReview(const QString& folder, QString* error = nullptr,
                            QStringList* written = nullptr);
    /// What every export of the window says about itself (title line, footer, CSV sidecar):
    /// the session's program or drilled region, target, baseline, database and accuracy.
    ChartExportContext exportContext() const;
    /// File ▸ Export ▸ Footer on exported charts (database, model accuracy, date); remembered.
    bool exportFooter() const;
    void setExportFooter(bool footer);

protected:
    /// On the first show, once the window frame is known: shrinks the window so that the frame
    /// too fits the screen's free area (the start size bounds only the inside).
    void showEvent(QShowEvent* event) override;

private:
    /// The empty state, the loading page, the header and the view tabs.
    void buildCentralArea(const PresetLibrary& presets);
    /// The Back action and the drill-down's status messages.
    void buildNavigation();
    void chooseExportFile();
    void chooseExportFolder();
    void buildMenus(const PresetLibrary& presets);
    void buildStatusBar(const PresetLibrary& presets);
    void showDatabaseState();
    void showOpenError(const QString& path, const QString& message);
    void applyTheme();
    /// Hides the parameter dock when the window could not fit the screen with it.
    void fitScreen();
    void chooseDatabase();
    /// File ▸ Add program…: the dialog, then the user database with the program selected.
    void addProgram();
    void chooseSessionToLoad();
    void chooseSessionToSave();
    void showError(const QString& title, const QString& message);
    /// Help ▸ Guide: how to read each view (one dialog, kept open beside the charts).
    void showGuide();
    /// Help ▸ About: version, the database's provenance and the model's measured accuracy.
    void showAbout();

    Session& session_;
    ParameterPanel* panel_ = nullptr;
    ParameterHistory* history_ = nullptr;
    QStackedWidget* centre_ = nullptr;
    EmptyStatePage* noDatabasePage_ = nullptr;
    DatabaseLoadingPage* loadingPage_ = nullptr;
    QWidget* content_ = nullptr;
    PredictionHeader* header_ = nullptr;
    ViewTabs* views_ = nullptr;
    RecentFilesMenu* recent_ = nullptr;
    QLabel* databaseLabel_ = nullptr;
    ExplorerBounds* bounds_ = nullptr;
    QAction* backAction_ = nullptr;
    QAction* footerAction_ = nullptr;
    std::vector<Preset> presets_; ///< what names the target and baseline in exports
    GuideDialog* guide_ = nullptr;
    bool fittedFrame_ = false; ///< showEvent() has fitted the frame to the screen
    bool fullScreenForProjector_ = false;
    QRect geometryBeforeProjector_; ///< restored when projector mode ends
};

} // namespace concorde::ui
