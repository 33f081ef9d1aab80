#include "MainWindow.h"

#include "AboutText.h"
#include "AddProgramDialog.h"
#include "ChartExporter.h"
#include "ChartView.h"
#include "ConfigSummaryLabel.h"
#include "DatabaseLoadingPage.h"
#include "EmptyStatePage.h"
#include "ExplorerBounds.h"
#include "FileDropFilter.h"
#include "GuideDialog.h"
#include "ParameterHistory.h"
#include "ParameterPanel.h"
#include "PredictionHeader.h"
#include "PresetMenu.h"
#include "ProgramImport.h"
#include "RecentFilesMenu.h"
#include "Session.h"
#include "SessionFile.h"
#include "Theme.h"
#include "ThemeMenu.h"
#include "ViewCatalog.h"
#include "ViewPage.h"
#include "ViewTabs.h"
#include "explore/ExplorerModel.h"
#include "params/PresetLibrary.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

namespace concorde::ui {
namespace {

constexpr int kStatusMessageMs = 10000;

const QString kSessionFilter = QStringLiteral("Explorer sessions (*.json);;All files (*)");

} // namespace

MainWindow::MainWindow(Session& session, const PresetLibrary& presets, QWidget* parent)
    : QMainWindow(parent), session_(session), presets_(presets.presets()) {
    setObjectName(QStringLiteral("main_window"));
    setWindowTitle(tr("Concorde Explorer"));

    panel_ = new ParameterPanel(session_);
    auto* dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName(QStringLiteral("dock_parameters"));
    dock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    dock->setWidget(panel_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    // A slider drag is one undo step.
    history_ = new ParameterHistory(session_, this);
    connect(panel_, &ParameterPanel::dragStarted, history_, &ParameterHistory::beginGesture);
    connect(panel_, &ParameterPanel::dragFinished, history_, &ParameterHistory::endGesture);

    buildCentralArea(presets);
    buildNavigation();
    buildMenus(presets);
    buildStatusBar(presets);

    auto* drops = new FileDropFilter(this);
    installEventFilter(drops);
    setAcceptDrops(true);
    connect(drops, &FileDropFilter::databaseDropped, this, &MainWindow::openDatabase);
    connect(drops, &FileDropFilter::sessionDropped, this, &MainWindow::loadSession);

    connect(&session_, &Session::databaseOpening, this, &MainWindow::showDatabaseState);
    connect(&session_, &Session::databaseOpenCancelled, this, [this] {
        showDatabaseState();
        statusBar()->showMessage(tr("Opening cancelled"), kStatusMessageMs);
    });
    connect(&session_, &Session::databaseOpened, this, [this](const QString& path) {
        recent_->add(path);
        showDatabaseState();
        if (const QString damage = session_.damageWarning(); !damage.isEmpty())
            statusBar()->showMessage(QStringLiteral("⚠ ") + damage); // stays: the data is damaged
        if (session_.theme().projector()) // the database's grid may widen the parameter labels
            QMetaObject::invokeMethod(this, &MainWindow::fitScreen, Qt::QueuedConnection);
    });
    connect(&session_, &Session::databaseFailed, this, &MainWindow::showOpenError);
    connect(&session_, &Session::predictionFailed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Prediction failed: %1").arg(message), kStatusMessageMs);
    });
    connect(&session_.theme(), &Theme::changed, this, &MainWindow::applyTheme);

    showDatabaseState();
    // 1400×900, but never beyond the screen's free area (a 1280×800 laptop or projector).
    QSize start(1400, 900);
    if (const QScreen* display = screen())
        start = start.boundedTo(display->availableGeometry().size());
    resize(start);
    applyTheme(); // after resize(): projector mode starts full screen
}

void MainWindow::buildCentralArea(const PresetLibrary& presets) {
    noDatabasePage_ = new EmptyStatePage(
        tr("No feature database open"),
        tr("Predicted CPI, throughput distributions and Shapley attributions are computed from a "
           "precomputed feature database. Build one from traces with:"));
    noDatabasePage_->setObjectName(QStringLiteral("empty_no_database"));
    noDatabasePage_->setCommand(QStringLiteral("concorde build-db --out my.sqlite TRACES..."));
    noDatabasePage_->setHint(tr(
        "<p>Then open it with <b>File ▸ Open database…</b>, drop it on this window, or start "
        "the explorer with its path:<br><span style=\"white-space:nowrap\"><tt>concorde-explorer "
        "my.sqlite</tt></span></p>"
        "<p>The sliders already edit the target core; the views (throughput CDFs, bound "
        "timeseries, Shapley attribution, phases) appear here once a database is open.</p>"));

    loadingPage_ = new DatabaseLoadingPage(session_);

    bounds_ = new ExplorerBounds(session_, this);
    // Views that load with the window open (e.g. a session restored before) start from it.
    if (session_.hasDatabase())
        bounds_->loadNow();
    views_ = new ViewTabs(ViewCatalog::standard(), {session_, bounds_, presets.presets()});

    header_ = new PredictionHeader(session_, presets.presets());
    content_ = new QWidget;
    content_->setObjectName(QStringLiteral("explorer_content"));
    auto* column = new QVBoxLayout(content_);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(header_);
    column->addWidget(views_, 1);

    centre_ = new QStackedWidget;
    centre_->setObjectName(QStringLiteral("central_stack"));
    centre_->addWidget(noDatabasePage_);
    centre_->addWidget(loadingPage_);
    centre_->addWidget(content_);
    setCentralWidget(centre_);
}

void MainWindow::buildNavigation() {
    connect(bounds_, &ExplorerBounds::loadFailed, this, [this](const QString& message) {
        statusBar()->showMessage(message, kStatusMessageMs);
    });

    // Drilling into a region (phases tab) shows its timeseries; Back returns to the program.
    QToolBar* tools = addToolBar(tr("Navigation"));
    tools->setObjectName(QStringLiteral("toolbar_navigation"));
    tools->setMovable(false);
    backAction_ = tools->addAction(tr("◀ Back to program"), bounds_, &ExplorerBounds::back);
    backAction_->setObjectName(QStringLiteral("action_back"));
    backAction_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    backAction_->setToolTip(tr("Back to the whole program (Alt+Left)"));
    backAction_->setEnabled(false);
    connect(bounds_, &ExplorerBounds::selectionChanged, this, [this] {
        const bool drilled = bounds_->drilledRegion() >= 0;
        backAction_->setEnabled(drilled);
        if (drilled && views_->currentId() == QLatin1String("phases"))
            views_->showView(QStringLiteral("timeseries"));
        // The drill-down hint, cleared on the way back (other messages stay).
        const QString hint = tr(" — Alt+Left returns to the whole program");
        if (drilled)
            statusBar()->showMessage(tr("Showing %1").arg(bounds_->selectionLabel()) + hint,
                                     kStatusMessageMs);
        else if (statusBar()->currentMessage().endsWith(hint))
            statusBar()->clearMessage();
    });
}

ChartView* MainWindow::currentChart() const {
    ViewPage* page = views_->currentPage();
    return page ? page->chartView() : nullptr;
}

bool MainWindow::exportCurrentChart(const QString& path, QString* error) {
    ViewPage* page = views_->currentPage();
    if (!page)
        return false;
    page->ensureCurrent();
    ChartExporter::Options options;
    options.context = exportContext();
    return ChartExporter::exportView(*page->chartView(), path, options, error);
}

bool MainWindow::copyCurrentChart() {
    ViewPage* page = views_->currentPage();
    if (!page)
        return false;
    page->ensureCurrent();
    ChartExporter::Options options;
    options.context = exportContext();
    ChartExporter::copyToClipboard(*page->chartView(), options);
    return true;
}

bool MainWindow::exportAllForReview(const QString& folder, QString* error, QStringList* written) {
    QList<ChartView*> charts;
    for (ViewPage* page : views_->pages()) {
        page->ensureCurrent(); // background tabs refresh only when shown
        if (page->chartView()->hasData())
            charts << page->chartView();
    }
    ChartExporter::Options options;
    options.context = exportContext();
    return ChartExporter::exportAll(charts, folder, {}, options, error, written);
}

ChartExportContext MainWindow::exportContext() const {
    ChartExportContext context = ChartExportContext::fromSession(
        session_, presets_, bounds_->drilledRegion() >= 0 ? bounds_->selectionLabel() : QString());
    context.footer = exportFooter();
    return context;
}

bool MainWindow::exportFooter() const {
    return footerAction_->isChecked();
}

void MainWindow::setExportFooter(bool footer) {
    footerAction_->setChecked(footer);
}

void MainWindow::chooseExportFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), QStringLiteral("chart.png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf);;CSV data (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCurrentChart(path, &error))
        showError(tr("Could not export the chart"), error.toHtmlEscaped());
    else
        statusBar()->showMessage(tr("Exported %1").arg(QFileInfo(path).fileName()),
                                 kStatusMessageMs);
}

void MainWindow::chooseExportFolder() {
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Export all for review into folder"));
    if (folder.isEmpty())
        return;
    QString error;
    QStringList written;
    if (!exportAllForReview(folder, &error, &written))
        showError(tr("Could not export the charts"), error.toHtmlEscaped());
    else
        statusBar()->showMessage(tr("Wrote %1 files to %2").arg(written.size()).arg(folder),
                                 kStatusMessageMs);
}

void MainWindow::buildMenus(const PresetLibrary& presets) {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("menu_file"));
    QAction* open = file->addAction(tr("&Open database…"), this, &MainWindow::chooseDatabase);
    open->setObjectName(QStringLiteral("action_open_database"));
    open->setShortcut(QKeySequence::Open);
    recent_ = new RecentFilesMenu(tr("Open &recent"), QStringLiteral("recentDatabases"), file);
    file->addMenu(recent_);
    connect(recent_, &RecentFilesMenu::fileChosen, this, &MainWindow::openDatabase);
    file->addAction(tr("&Add program…"), this, &MainWindow::addProgram)
        ->setObjectName(QStringLiteral("action_add_program"));
    file->addSeparator();
    file->addAction(tr("&Load session…"), this, &MainWindow::chooseSessionToLoad)
        ->setObjectName(QStringLiteral("action_load_session"));
    QAction* save = file->addAction(tr("&Save session…"), this, &MainWindow::chooseSessionToSave);
    save->setObjectName(QStringLiteral("action_save_session"));
    save->setShortcut(QKeySequence::Save);
    file->addSeparator();
    QMenu* exports = file->addMenu(tr("&Export"));
    exports->setObjectName(QStringLiteral("menu_export"));
    exports
        ->addAction(tr("Current chart as PNG, SVG, PDF or CSV…"), this,
                    &MainWindow::chooseExportFile)
        ->setObjectName(QStringLiteral("action_export_chart"));
    exports->addAction(tr("&Copy chart to clipboard"), this, &MainWindow::copyCurrentChart)
        ->setObjectName(QStringLiteral("action_copy_chart"));
    exports->addAction(tr("Export &all for review…"), this, &MainWindow::chooseExportFolder)
        ->setObjectName(QStringLiteral("action_export_all"));
    exports->addSeparator();
    footerAction_ = exports->addAction(tr("&Footer on exported charts (database, accuracy, date)"));
    footerAction_->setObjectName(QStringLiteral("action_export_footer"));
    footerAction_->setCheckable(true);
    footerAction_->setChecked(QSettings().value(QStringLiteral("export/footer"), true).toBool());
    connect(footerAction_, &QAction::toggled, this,
            [](bool on) { QSettings().setValue(QStringLiteral("export/footer"), on); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("action_quit"));
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("menu_edit"));
    QAction* undo = history_->stack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("action_undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = history_->stack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("action_redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    menuBar()->addMenu(new PresetMenu(session_, presets, this));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("menu_view"));
    auto* dock = findChild<QDockWidget*>(QStringLiteral("dock_parameters"));
    view->addAction(dock->toggleViewAction());
    view->addSeparator();
    auto* theme = new ThemeMenu(session_.theme(), view);
    view->addMenu(theme);
    // The shortcut must work in full screen, where the menu bar may be out of reach.
    addAction(theme->projectorAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("menu_help"));
    QAction* guide = help->addAction(tr("&Guide"), this, &MainWindow::showGuide);
    guide->setObjectName(QStringLiteral("action_guide"));
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Concorde Explorer"), this, &MainWindow::showAbout)
        ->setObjectName(QStringLiteral("action_about"));
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::buildStatusBar(const PresetLibrary& presets) {
    auto* summary = new ConfigSummaryLabel(session_, presets);
    // Clipped rather than widening the window beyond the screen (projector fonts); the tooltip
    // has it all.
    summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(summary, 1);
    databaseLabel_ = new QLabel;
    databaseLabel_->setObjectName(QStringLiteral("database_status"));
    databaseLabel_->setContentsMargins(16, 0, 0, 0); // apart from the clipped summary
    statusBar()->addPermanentWidget(databaseLabel_);
}

void MainWindow::showDatabaseState() {
    QWidget* page = session_.isOpening()     ? static_cast<QWidget*>(loadingPage_)
                    : session_.hasDatabase() ? content_
                                             : static_cast<QWidget*>(noDatabasePage_);
    centre_->setCurrentWidget(page);
    const QString path = session_.databasePath();
    if (const ExplorerPtr& explorer = session_.explorer()) {
        databaseLabel_->setText(
            tr("%1 · model %2 · %n program(s)", nullptr, int(explorer->programs().size()))
                .arg(QFileInfo(path).fileName(), QString::fromStdString(explorer->model().name)));
        databaseLabel_->setToolTip(path);
        setWindowTitle(tr("%1 — Concorde Explorer").arg(QFileInfo(path).fileName()));
    } else {
        databaseLabel_->setText(session_.isOpening() ? tr("Opening…") : tr("No database"));
        databaseLabel_->setToolTip(session_.openingPath());
    }
}

void MainWindow::openDatabase(const QString& path) {
    session_.openDatabase(path);
}

void MainWindow::showOpenError(const QString& path, const QString& message) {
    showDatabaseState();
    statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()),
                             kStatusMessageMs);
    showError(tr("Could not open the database"),
              tr("<p><b>%1</b> could not be opened:</p><p>%2</p>%3")
                  .arg(QFileInfo(path).fileName().toHtmlEscaped(), message.toHtmlEscaped(),
                       session_.hasDatabase()
                           ? tr("<p>%1 stays open.</p>")
                                 .arg(QFileInfo(session_.databasePath()).fileName().toHtmlEscaped())
                           : QString()));
}

void MainWindow::showError(const QString& title, const QString& message) {
    // Window-modal but not blocking: the event loop (and the tests) keep running.
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("error_box"));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MainWindow::loadSession(const QString& path) {
    QString message;
    history_->beginGesture(); // the whole session is one undo step
    const bool ok = SessionFile::load(session_, path, &message);
    history_->endGesture();
    if (!ok)
        showError(tr("Could not load the session"), message.toHtmlEscaped());
    else
        statusBar()->showMessage(message.isEmpty()
                                     ? tr("Session loaded from %1").arg(QFileInfo(path).fileName())
                                     : message,
                                 kStatusMessageMs);
    return ok;
}

bool MainWindow::saveSession(const QString& path) {
    QString error;
    if (!SessionFile::save(session_, path, &error)) {
        showError(tr("Could not save the session"), error.toHtmlEscaped());
        return false;
    }
    statusBar()->showMessage(tr("Session saved to %1").arg(QFileInfo(path).fileName()),
                             kStatusMessageMs);
    return true;
}

void MainWindow::applyTheme() {
    const Theme& theme = session_.theme();
    theme.applyToApplication();
    // A dock paints its title in the font its class had at start-up unless its own font differs
    // from the application's: a bold title follows the theme (and the panel keeps the plain one).
    findChild<QDockWidget*>(QStringLiteral("dock_parameters"))->setFont(theme.font(1.0, true));
    panel_->setFont(theme.font(1.0, false)); // explicitly not bold
    if (theme.projector() && !isFullScreen()) {
        fullScreenForProjector_ = true;
        geometryBeforeProjector_ = geometry();
        fitScreen();
        // Again once the projector fonts have reached every widget's size hint.
        QMetaObject::invokeMethod(this, &MainWindow::fitScreen, Qt::QueuedConnection);
        // Also take the screen's whole area ourselves: without a window manager (a bare X
        // server on a presentation machine, Xvfb) the full-screen request alone does nothing.
        if (const QScreen* display = screen())
            setGeometry(display->geometry());
        showFullScreen();
    } else if (!theme.projector() && fullScreenForProjector_) {
        fullScreenForProjector_ = false;
        showNormal();
        if (geometryBeforeProjector_.isValid())
            setGeometry(geometryBeforeProjector_);
    }
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    const QScreen* display = screen();
    if (fittedFrame_ || !display || isFullScreen() || isMaximized())
        return;
    fittedFrame_ = true;
    const QRect room = display->availableGeometry();
    const QSize frame = frameGeometry().size() - geometry().size();
    const QSize inside = size().boundedTo(room.size() - frame);
    if (inside != size())
        resize(inside.expandedTo(minimumSize()));
    // Back inside the free area if the frame reached past it.
    QRect placed = frameGeometry();
    placed.moveLeft(std::clamp(placed.left(), room.left(),
                               std::max(room.left(), room.right() - placed.width() + 1)));
    placed.moveTop(std::clamp(placed.top(), room.top(),
                              std::max(room.top(), room.bottom() - placed.height() + 1)));
    if (placed.topLeft() != frameGeometry().topLeft())
        move(placed.topLeft());
}

void MainWindow::fitScreen() {
    // On a narrow projector the parameters at projector size would make the window wider than
    // the screen (and window managers then refuse full screen): hide them; View ▸ Parameters
    // brings them back.
    auto* dock = findChild<QDockWidget*>(QStringLiteral("dock_parameters"));
    const QScreen* display = screen();
    // The window's own hint can lag behind a font change; the dock and the central area's
    // hints are measured directly.
    // In projector mode the charts need room to be read from the back of the room: at least
    // 1000 pixels beside the parameters, or the parameters go.
    const int chartWidth = std::max(centralWidget()->minimumSizeHint().width(),
                                    session_.theme().projector() ? 1000 : 0);
    const int needed =
        std::max(minimumSizeHint().width(), dock ? dock->sizeHint().width() + chartWidth : 0);
    // isHidden, not isVisible: this also runs from the constructor, before the window is shown.
    if (!dock || dock->isHidden() || !display || needed <= display->availableGeometry().width())
        return;
    dock->hide();
    statusBar()->showMessage(tr("Parameters hidden to fit the screen: View ▸ Parameters shows "
                                "them"),
                             kStatusMessageMs);
}

void MainWindow::addProgram() {
    auto* dialog = new AddProgramDialog(session_, ProgramImport::defaultConcordeBinary(),
                                        ProgramImport::defaultUserDatabase(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AddProgramDialog::programAdded, this,
            [this](const QString& database, const QString& program) {
                openDatabase(database);
                // Kept while the database opens, then selected there.
                session_.setProgram(program);
            });
    dialog->open();
}

void MainWindow::chooseDatabase() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open feature database"), QString(),
                                     tr("Feature databases (*.sqlite *.db);;All files (*)"));
    if (!path.isEmpty())
        openDatabase(path);
}

void MainWindow::chooseSessionToLoad() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Load session"), QString(), kSessionFilter);
    if (!path.isEmpty())
        loadSession(path);
}

void MainWindow::chooseSessionToSave() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save session"),
                                                QStringLiteral("session.json"), kSessionFilter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    saveSession(path);
}

void MainWindow::showGuide() {
    if (!guide_)
        guide_ = new GuideDialog(ViewCatalog::standard(), this);
    guide_->show();
    guide_->raise();
    guide_->activateWindow();
}

void MainWindow::showAbout() {
    // Window-modal but not blocking, as the error boxes.
    auto* box = new QMessageBox(QMessageBox::NoIcon, tr("About Concorde Explorer"),
                                AboutText::html(session_), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("about_box"));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace concorde::ui
