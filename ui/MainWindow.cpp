#include "MainWindow.h"

#include "ConfigSummaryLabel.h"
#include "EmptyStatePage.h"
#include "ParameterPanel.h"
#include "PresetMenu.h"
#include "Session.h"

#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

namespace concorde::ui {
namespace {

constexpr int kStatusMessageMs = 10000;

struct ViewPlaceholder {
    const char* tab;
    const char* objectName;
    const char* description;
};

// The views later issues fill in; until then each tab says what it will show.
const ViewPlaceholder kViews[] = {
    {QT_TRANSLATE_NOOP("concorde::ui::MainWindow", "Throughput CDFs"), "view_cdfs",
     QT_TRANSLATE_NOOP("concorde::ui::MainWindow",
                       "For each resource (ROB, load and store queues, issue widths, fetch...), "
                       "the distribution over windows of the throughput that resource alone "
                       "allows, for the selected program at the current slider values.")},
    {QT_TRANSLATE_NOOP("concorde::ui::MainWindow", "Bound timeseries"), "view_timeseries",
     QT_TRANSLATE_NOOP("concorde::ui::MainWindow",
                       "The per-window throughput bounds along the program, with the resource "
                       "that binds in each window highlighted.")},
    {QT_TRANSLATE_NOOP("concorde::ui::MainWindow", "Shapley attribution"), "view_shapley",
     QT_TRANSLATE_NOOP("concorde::ui::MainWindow",
                       "Stacked bars splitting the CPI gap between the baseline and the target "
                       "core among the parameters, per program and per region.")},
    {QT_TRANSLATE_NOOP("concorde::ui::MainWindow", "Phases"), "view_phases",
     QT_TRANSLATE_NOOP("concorde::ui::MainWindow",
                       "The program's regions on a timeline, coloured by phase; click a region to "
                       "drill into its windows.")},
};

} // namespace

MainWindow::MainWindow(Session& session, const PresetLibrary& presets, QWidget* parent)
    : QMainWindow(parent), session_(session) {
    setObjectName(QStringLiteral("main_window"));
    setWindowTitle(tr("Concorde Explorer"));

    panel_ = new ParameterPanel(session_);
    auto* dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName(QStringLiteral("dock_parameters"));
    dock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    dock->setWidget(panel_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    buildCentralArea();
    buildMenus(presets);
    buildStatusBar(presets);

    showDatabaseState();
    connect(&session_, &Session::databasePathChanged, this, &MainWindow::showDatabaseState);
    resize(1400, 900);
}

void MainWindow::buildCentralArea() {
    noDatabasePage_ = new EmptyStatePage(
        tr("No feature database open"),
        tr("Predicted CPI, throughput distributions and Shapley attributions are computed from a "
           "precomputed feature database. Build one from traces with:"));
    noDatabasePage_->setObjectName(QStringLiteral("empty_no_database"));
    noDatabasePage_->setCommand(QStringLiteral("concorde build-db --out my.sqlite TRACES..."));
    noDatabasePage_->setHint(
        tr("<p>Then open it with <b>File ▸ Open database…</b> or start the explorer with its "
           "path:<br><span style=\"white-space:nowrap\"><tt>concorde-explorer "
           "my.sqlite</tt></span></p>"
           "<p>The sliders already edit the target core; the views (throughput CDFs, bound "
           "timeseries, Shapley attribution, phases) appear here once a database is open.</p>"));

    views_ = new QTabWidget;
    views_->setObjectName(QStringLiteral("view_tabs"));
    for (const ViewPlaceholder& view : kViews) {
        const QString name = tr(view.tab);
        auto* page = new EmptyStatePage(name, tr(view.description));
        page->setObjectName(QLatin1String(view.objectName));
        page->setHint(tr("This view arrives in a later version."));
        views_->addTab(page, name);
    }

    centre_ = new QStackedWidget;
    centre_->setObjectName(QStringLiteral("central_stack"));
    centre_->addWidget(noDatabasePage_);
    centre_->addWidget(views_);
    setCentralWidget(centre_);
}

void MainWindow::buildMenus(const PresetLibrary& presets) {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("menu_file"));
    QAction* open = file->addAction(tr("&Open database…"), this, &MainWindow::chooseDatabase);
    open->setObjectName(QStringLiteral("action_open_database"));
    open->setShortcut(QKeySequence::Open);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("action_quit"));
    quit->setShortcut(QKeySequence::Quit);

    menuBar()->addMenu(new PresetMenu(session_, presets, this));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("menu_view"));
    auto* dock = findChild<QDockWidget*>(QStringLiteral("dock_parameters"));
    view->addAction(dock->toggleViewAction());
    view->addSeparator();
    // Light, dark and projector themes arrive in a later issue; the entry says so.
    QAction* themes = view->addAction(tr("Themes (not available yet)"));
    themes->setObjectName(QStringLiteral("action_themes_placeholder"));
    themes->setEnabled(false);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("menu_help"));
    help->addAction(tr("&About Concorde Explorer"), this, &MainWindow::showAbout)
        ->setObjectName(QStringLiteral("action_about"));
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::buildStatusBar(const PresetLibrary& presets) {
    statusBar()->addWidget(new ConfigSummaryLabel(session_, presets), 1);
    databaseLabel_ = new QLabel;
    databaseLabel_->setObjectName(QStringLiteral("database_status"));
    statusBar()->addPermanentWidget(databaseLabel_);
}

void MainWindow::showDatabaseState() {
    centre_->setCurrentWidget(session_.hasDatabase() ? static_cast<QWidget*>(views_)
                                                     : noDatabasePage_);
    const QString path = session_.databasePath();
    if (session_.hasDatabase())
        databaseLabel_->setText(QFileInfo(path).fileName());
    else if (!path.isEmpty())
        databaseLabel_->setText(tr("%1 (not loaded)").arg(QFileInfo(path).fileName()));
    else
        databaseLabel_->setText(tr("No database"));
    databaseLabel_->setToolTip(path);
}

void MainWindow::openDatabase(const QString& path) {
    if (!QFileInfo(path).isFile()) {
        statusBar()->showMessage(tr("No such file: %1").arg(path), kStatusMessageMs);
        return;
    }
    session_.setDatabasePath(QFileInfo(path).absoluteFilePath());
    if (!session_.hasDatabase())
        statusBar()->showMessage(
            tr("Feature databases cannot be read by this version yet; %1 was not loaded.")
                .arg(QFileInfo(path).fileName()),
            kStatusMessageMs);
}

void MainWindow::chooseDatabase() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open feature database"), QString(),
                                     tr("Feature databases (*.sqlite *.db);;All files (*)"));
    if (!path.isEmpty())
        openDatabase(path);
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About Concorde Explorer"),
        tr("<h3>Concorde Explorer %1</h3>"
           "<p>Interactive CPU microarchitecture exploration: drag twenty core parameters and see "
           "predicted CPI, per-resource throughput bounds and Shapley attribution of the CPI gap "
           "between a baseline and a target core.</p>"
           "<p>Predictions follow the Concorde method (compositional analytical-ML fusion): "
           "per-resource analytical bounds on traced programs, combined by a small neural "
           "network trained against a cycle-level simulator.</p>")
            .arg(QStringLiteral(CONCORDE_VERSION)));
}

} // namespace concorde::ui
