// MainWindow: menus, the preset menu, the empty state, errors on unreadable files, view tabs
// and the status-bar summary. (With a database: ExplorerWindowTest.)
#include "MainWindow.h"

#include "../support/ExplorerTestSession.h"
#include "../support/TinyExplorerDatabase.h"
#include "AddProgramDialog.h"
#include "ChartView.h"
#include "ConfigSummaryLabel.h"
#include "EmptyStatePage.h"
#include "HeadlessExport.h"
#include "LastConfiguration.h"
#include "ParameterPanel.h"
#include "PresetMenu.h"
#include "Session.h"
#include "ViewCatalog.h"
#include "ViewPage.h"
#include "ViewTabs.h"
#include "params/PresetLibrary.h"
#include "store/SqliteConnection.h"

#include <QDialog>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSlider>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTextBrowser>
#include <QtTest>
#include <filesystem>

using namespace concorde;
using concorde::ui::EmptyStatePage;
using concorde::ui::MainWindow;
using concorde::ui::Session;
using concorde::ui::ViewCatalog;
using concorde::ui::ViewEntry;
using concorde::ui::ViewPage;

namespace {

QStringList menuTitles(const QMainWindow& window) {
    QStringList titles;
    for (const QAction* action : window.menuBar()->actions())
        titles << action->text().remove(QLatin1Char('&'));
    return titles;
}

QStringList actionTexts(const QMenu* menu) {
    QStringList texts;
    for (const QAction* action : menu->actions())
        if (!action->isSeparator() && !action->menu())
            texts << action->text();
    return texts;
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private:
    PresetLibrary presets_ = PresetLibrary::loadDefault();

private slots:
    void hasTheMenus() {
        Session session;
        MainWindow window(session, presets_);
        QCOMPARE(menuTitles(window), (QStringList{"File", "Edit", "Presets", "View", "Help"}));
        auto* file = window.findChild<QMenu*>(QStringLiteral("menu_file"));
        QVERIFY(file);
        QVERIFY(file->findChild<QAction*>(QStringLiteral("action_open_database")) ||
                window.findChild<QAction*>(QStringLiteral("action_open_database")));
        QVERIFY(window.findChild<QAction*>(QStringLiteral("action_quit")));
        QVERIFY(window.findChild<QAction*>(QStringLiteral("action_about")));
    }

    void presetsMenuListsEveryPreset() {
        Session session;
        MainWindow window(session, presets_);
        auto* menu = window.findChild<QMenu*>(QStringLiteral("menu_presets"));
        QVERIFY(menu);
        const QStringList texts = actionTexts(menu);
        for (const char* name : {"big", "n1-like", "little"})
            QVERIFY2(texts.contains(QLatin1String(name)), name);
        // Every preset, then "Save the sliders as a preset…".
        QCOMPARE(texts.size(), qsizetype(presets_.presets().size()) + 1);
        QVERIFY(QString(texts.back()).remove(QLatin1Char('&')).startsWith("Save the sliders"));

        auto* baseline = window.findChild<QMenu*>(QStringLiteral("menu_baseline"));
        QVERIFY(baseline);
        QCOMPARE(baseline->menuAction()->text().remove(QLatin1Char('&')),
                 QStringLiteral("Set as baseline"));
        const QStringList baselineTexts = actionTexts(baseline);
        for (const char* name : {"big", "n1-like", "little"})
            QVERIFY2(baselineTexts.contains(QLatin1String(name)), name);
    }

    // Presets ▸ Save the sliders as a preset: two candidate cores saved by name can be chosen
    // as target and baseline (the A/B tab's "saved configurations"), in this window at once and
    // from the user's preset folder in the next.
    void slidersSavedAsAPresetAreOfferedEverywhere() {
        QTemporaryDir config;
        QVERIFY(config.isValid());
        const QByteArray oldConfig = qgetenv("XDG_CONFIG_HOME");
        qputenv("XDG_CONFIG_HOME", config.path().toUtf8());
        Session session(presets_.require("n1-like").config, presets_.require("little").config);
        MainWindow window(session, presets_);
        auto* menu = window.findChild<ui::PresetMenu*>(QStringLiteral("menu_presets"));
        QVERIFY(menu);
        QVERIFY(window.findChild<QAction*>(QStringLiteral("action_save_preset")));

        CoreConfig candidateA = session.config();
        candidateA.set(ParamId::Rob, 256);
        session.setConfig(candidateA);
        QCOMPARE(menu->savePreset(QStringLiteral("cand-a")), QString());
        CoreConfig candidateB = candidateA;
        candidateB.set(ParamId::L2Kb, 2048);
        session.setConfig(candidateB);
        QCOMPARE(menu->savePreset(QStringLiteral("cand-b")), QString());
        QVERIFY(menu->savePreset(QStringLiteral("cand-a")).contains("already"));
        QVERIFY(menu->savePreset(QStringLiteral("bad name")).contains("letters"));

        auto* targetA = window.findChild<QAction*>(QStringLiteral("preset_cand-a"));
        auto* baselineA = window.findChild<QAction*>(QStringLiteral("baseline_cand-a"));
        QVERIFY(targetA && baselineA);
        QVERIFY(window.findChild<QAction*>(QStringLiteral("preset_cand-b"))->isChecked());
        baselineA->trigger();
        QCOMPARE(session.baseline(), candidateA);
        QCOMPARE(session.config(), candidateB);
        QVERIFY(baselineA->isChecked());
        // Named at once wherever a configuration is named, not only in this menu.
        QCOMPARE(session.presetName({}, candidateA), std::string("cand-a"));
        auto* summary = window.findChild<ui::ConfigSummaryLabel*>();
        QVERIFY(summary);
        QVERIFY2(summary->text().contains("Target: cand-b") &&
                     summary->text().contains("Baseline: cand-a"),
                 qPrintable(summary->text()));

        // Written as a user preset the next window (and the CLI) loads.
        const PresetLibrary reloaded = PresetLibrary::loadFrom(
            {std::filesystem::path(config.path().toStdString()) / "concorde" / "presets"});
        QVERIFY(reloaded.find("cand-a") && reloaded.find("cand-b"));
        QCOMPARE(reloaded.require("cand-b").config, candidateB);
        QVERIFY(reloaded.rejected().empty());
        qputenv("XDG_CONFIG_HOME", oldConfig);
    }

    void choosingPresetsUpdatesSessionAndSliders() {
        Session session(CoreConfig{}, presets_.require("big").config);
        MainWindow window(session, presets_);
        auto* n1 = window.findChild<QAction*>(QStringLiteral("preset_n1-like"));
        QVERIFY(n1);
        QVERIFY(!n1->isChecked());
        n1->trigger();
        QCOMPARE(session.config(), presets_.require("n1-like").config);
        QVERIFY(n1->isChecked());
        QCOMPARE(window.findChild<QSlider*>(QStringLiteral("slider_rob"))->value(), 5);
        QCOMPARE(session.baseline(), presets_.require("big").config); // baseline untouched
        QVERIFY(window.findChild<QAction*>(QStringLiteral("baseline_big"))->isChecked());

        // Moving a slider away from the preset unchecks it.
        QTest::keyClick(window.findChild<QSlider*>(QStringLiteral("slider_rob")), Qt::Key_Right);
        QVERIFY(!n1->isChecked());

        auto* little = window.findChild<QAction*>(QStringLiteral("baseline_little"));
        QVERIFY(little);
        little->trigger();
        QCOMPARE(session.baseline(), presets_.require("little").config);
        QVERIFY(little->isChecked());
        QVERIFY(!window.findChild<QAction*>(QStringLiteral("baseline_big"))->isChecked());

        window.findChild<QAction*>(QStringLiteral("baseline_from_target"))->trigger();
        QCOMPARE(session.baseline(), session.config());
    }

    void showsTheNoDatabaseEmptyState() {
        Session session;
        MainWindow window(session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        auto* stack = window.findChild<QStackedWidget*>(QStringLiteral("central_stack"));
        QVERIFY(stack);
        auto* empty = window.findChild<EmptyStatePage*>(QStringLiteral("empty_no_database"));
        QVERIFY(empty);
        QCOMPARE(stack->currentWidget(), empty);
        QVERIFY(empty->isVisible());
        QVERIFY(empty->title().contains(QStringLiteral("No feature database")));
        QVERIFY(empty->command().contains(QStringLiteral("concorde build-db --out")));
        QVERIFY(empty->hint().contains(QStringLiteral("File ▸ Open")));
        QVERIFY(empty->findChild<QLabel*>(QStringLiteral("empty_command"))->isVisible());

        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("view_tabs"));
        QVERIFY(tabs);
        QVERIFY(!tabs->isVisible());
        QStringList names;
        for (int i = 0; i < tabs->count(); ++i)
            names << tabs->tabText(i);
        QCOMPARE(names, (QStringList{"Overview", "A/B", "Throughput CDFs", "Bound timeseries",
                                     "Shapley attribution", "Sensitivity", "Sweep", "Phases",
                                     "Validation"}));
        for (int i = 0; i < tabs->count(); ++i)
            QVERIFY(qobject_cast<ViewPage*>(tabs->widget(i)));

        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("dock_parameters"));
        QVERIFY(dock && dock->isVisible());
        QCOMPARE(window.dockWidgetArea(dock), Qt::LeftDockWidgetArea);
        QVERIFY(qobject_cast<concorde::ui::ParameterPanel*>(dock->widget()));
        // The dock is wide enough that no value label is squeezed below its reserved width.
        for (const ParameterSpec& spec : ParameterSpace::all()) {
            auto* value = window.findChild<QLabel*>(QStringLiteral("value_") +
                                                    QString::fromStdString(spec.key));
            QVERIFY(value && value->isVisible());
            QVERIFY2(value->width() >= value->minimumSizeHint().width(), spec.key.c_str());
            QVERIFY2(value->width() >= value->fontMetrics().horizontalAdvance(value->text()),
                     spec.key.c_str());
        }
    }

    void openingAnUnreadableFileShowsAnError() {
        Session session;
        MainWindow window(session, presets_);
        auto* database = window.findChild<QLabel*>(QStringLiteral("database_status"));
        QVERIFY(database);
        QCOMPARE(database->text(), QStringLiteral("No database"));

        window.openDatabase(QStringLiteral("/nonexistent/features.sqlite"));
        QTRY_VERIFY(window.findChild<QMessageBox*>(QStringLiteral("error_box")));
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("error_box"));
        QVERIFY2(box->text().contains(QStringLiteral("features.sqlite")), qPrintable(box->text()));
        QVERIFY(session.databasePath().isEmpty());
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Could not open")));
        box->close();
        QTRY_VERIFY(!window.findChild<QMessageBox*>(QStringLiteral("error_box")));

        QTemporaryFile file(QDir::tempPath() + QStringLiteral("/XXXXXX.sqlite"));
        QVERIFY(file.open()); // empty: not a database
        window.openDatabase(file.fileName());
        QTRY_VERIFY(window.findChild<QMessageBox*>(QStringLiteral("error_box")));
        QVERIFY(!session.hasDatabase());
        QCOMPARE(database->text(), QStringLiteral("No database"));
        auto* stack = window.findChild<QStackedWidget*>(QStringLiteral("central_stack"));
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("empty_no_database"));
    }

    // The tabs are the view registry's entries, in its order and with its titles; each is a
    // page with a chart, reachable by id, and the session's view follows the current tab.
    void everyCatalogEntryIsATab() {
        Session session;
        MainWindow window(session, presets_);
        const ViewCatalog catalog = ViewCatalog::standard();
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("view_tabs"));
        QCOMPARE(tabs->count(), int(catalog.views().size()));
        QCOMPARE(window.views().pages().size(), tabs->count());
        for (int i = 0; i < tabs->count(); ++i) {
            const ViewEntry& entry = catalog.views()[std::size_t(i)];
            ViewPage* page = window.views().page(entry.id);
            QVERIFY2(page, qPrintable(entry.id));
            QCOMPARE(tabs->widget(i), page);
            QCOMPARE(tabs->tabText(i), entry.title);
            QVERIFY(page->chartView());
            QVERIFY(window.views().showView(entry.id));
            QCOMPARE(window.views().currentId(), entry.id);
            QCOMPARE(session.view(), page->objectName());
            QCOMPARE(window.currentChart(), page->chartView());
        }
        QVERIFY(!window.views().showView(QStringLiteral("histogram")));
        QVERIFY(window.findChildren<EmptyStatePage*>(QString()).size() == 1); // no database only
        // A view chosen through the session (a loaded session file) shows its tab.
        session.setView(window.views().page(QStringLiteral("phases"))->objectName());
        QCOMPARE(window.views().currentId(), QStringLiteral("phases"));
    }

    void statusBarSummarisesTargetAndBaseline() {
        Session session(CoreConfig{}, presets_.require("big").config);
        MainWindow window(session, presets_);
        auto* summary = window.findChild<QLabel*>(QStringLiteral("config_summary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().startsWith(QStringLiteral("Target: custom · Baseline: big (")),
                 qPrintable(summary->text()));
        QVERIFY(summary->text().contains(QStringLiteral(" — ROB 128")));

        session.applyPreset(presets_.require("little"));
        QVERIFY(summary->text().startsWith(QStringLiteral("Target: little · Baseline: big")));
        QVERIFY(summary->text().contains(QStringLiteral(" — ROB 16")));
        QVERIFY(summary->toolTip().contains(QStringLiteral("rob=16  (512)")));

        session.setBaseline(session.config());
        QVERIFY(summary->text().contains(QStringLiteral("Baseline: little (same as target)")));
    }

    void startsOnTwoNamedPresetsAndShowsBothNames() {
        // No preset asked for and none remembered: n1-like against little, both named.
        QCOMPARE(Session::defaultTarget(presets_), presets_.require("n1-like").config);
        QCOMPARE(Session::defaultBaseline(presets_), presets_.require("little").config);
        QCOMPARE(Session::defaultTarget(PresetLibrary{}), CoreConfig{});
        QCOMPARE(Session::defaultBaseline(PresetLibrary{}), CoreConfig{});
        ui::HeadlessExport::Request request;
        CoreConfig target, baseline;
        QVERIFY(ui::HeadlessExport::configure(request, presets_, target, baseline, nullptr));
        QCOMPARE(target, presets_.require("n1-like").config);
        QCOMPARE(baseline, presets_.require("little").config);

        Session session(target, baseline);
        MainWindow window(session, presets_);
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* summary = window.findChild<QLabel*>(QStringLiteral("config_summary"));
        const QString names = QStringLiteral("Target: n1-like · Baseline: little");
        QVERIFY2(summary->text().startsWith(names), qPrintable(summary->text()));
        // Not clipped away on a 1024-pixel screen.
        QVERIFY(summary->isVisible());
        QVERIFY2(summary->contentsRect().width() >= summary->fontMetrics().horizontalAdvance(names),
                 qPrintable(QString::number(summary->contentsRect().width())));
    }

    void reopensTheLastConfiguration() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("lastConfiguration"));
        CoreConfig target = presets_.require("n1-like").config, baseline;
        QVERIFY(!ui::LastConfiguration::load(target, baseline)); // nothing stored yet
        QCOMPARE(target, presets_.require("n1-like").config);    // untouched

        CoreConfig custom = presets_.require("little").config;
        custom.set(ParamId::Rob, 256);
        ui::LastConfiguration::save(custom, presets_.require("big").config);
        QVERIFY(ui::LastConfiguration::load(target, baseline));
        QCOMPARE(target, custom);
        QCOMPARE(baseline, presets_.require("big").config);

        // Damaged settings are ignored, not half applied.
        QSettings().setValue(QStringLiteral("lastConfiguration/target"), "{\"rob\": 99999}");
        CoreConfig kept;
        QVERIFY(!ui::LastConfiguration::load(kept, baseline));
        QCOMPARE(kept, CoreConfig{});
        QSettings().remove(QStringLiteral("lastConfiguration"));
    }

    void helpHasAGuideToEveryView() {
        Session session;
        MainWindow window(session, presets_);
        auto* help = window.findChild<QMenu*>(QStringLiteral("menu_help"));
        QVERIFY(help);
        QCOMPARE(actionTexts(help).first().remove(QLatin1Char('&')), QStringLiteral("Guide"));
        auto* guide = window.findChild<QAction*>(QStringLiteral("action_guide"));
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        guide->trigger();
        auto* dialog = window.findChild<QDialog*>(QStringLiteral("guide_dialog"));
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(!dialog->isModal()); // read beside the charts
        const QString text =
            dialog->findChild<QTextBrowser*>(QStringLiteral("guide_text"))->toPlainText();
        for (const char* idea : {"Bound.", "Binds.", "Shapley bars.", "Bands."})
            QVERIFY2(text.contains(QLatin1String(idea)), idea);
        // A few lines of its own for every tab, not the one-line catalog description.
        const ViewCatalog catalog = ViewCatalog::standard();
        for (const ViewEntry& view : catalog.views()) {
            const qsizetype at = text.indexOf(QLatin1Char('\n') + view.title + QLatin1Char('\n'));
            QVERIFY2(at >= 0, qPrintable(view.title));
            const QString paragraph = text.mid(at + view.title.size() + 2).section('\n', 0, 0);
            QVERIFY2(paragraph.size() > 120, qPrintable(view.title + ": " + paragraph));
        }
        guide->trigger(); // the same dialog again
        QCOMPARE(window.findChildren<QDialog*>(QStringLiteral("guide_dialog")).size(), 1);

        // About without a database: the version, and how to open one.
        window.findChild<QAction*>(QStringLiteral("action_about"))->trigger();
        auto* about = window.findChild<QMessageBox*>(QStringLiteral("about_box"));
        QVERIFY(about);
        QVERIFY(about->text().contains(QStringLiteral(CONCORDE_VERSION)));
        QVERIFY(about->text().contains(QStringLiteral("No database is open")));
        about->close();
    }

    // Help ▸ About with a model that was checked on programs it never saw (evaluate
    // --record-never-seen): the count in the accuracy line, and per preset the model's error
    // beside the plain min-of-bounds CPI's, so a user sees where the physics does better.
    void aboutShowsTheNeverSeenProgramsPerPreset() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString database = dir.filePath("checked.sqlite");
        testing::buildTinyExplorerDatabase(database.toStdString());
        SqliteConnection(database.toStdString(), SqliteConnection::Mode::ReadWrite)
            .exec(R"(UPDATE models SET metrics_json = json_set(metrics_json,
                       '$.accuracy.never_seen', json('{"mean_rel_error": 0.0466, "samples": 396,
                       "per_program": {"luajit": {"mean_rel_error": 0.03},
                                       "x265": {"mean_rel_error": 0.06},
                                       "dot": {"mean_rel_error": 0.05}},
                       "per_source": {"random": {"mean_rel_error": 0.05},
                         "preset:big": {"mean_rel_error": 0.0418,
                           "baselines": {"min_of_bounds": {"mean_rel_error": 0.0437}}},
                         "preset:n1-like": {"mean_rel_error": 0.053,
                           "baselines": {"min_of_bounds": {"mean_rel_error": 0.0971}}}}}')))",
                  "recording a never-seen check");
        std::unique_ptr<Session> session(testing::newTinySession());
        QString error;
        QVERIFY2(session->openDatabaseNow(database, &error), qPrintable(error));
        MainWindow window(*session, presets_);
        window.findChild<QAction*>(QStringLiteral("action_about"))->trigger();
        auto* about = window.findChild<QMessageBox*>(QStringLiteral("about_box"));
        QVERIFY(about);
        const QString text = about->text();
        for (const char* expected :
             {"4.7 % on 3 never-seen programs", "Never-seen programs, per preset",
              "big: 4.2 % (min of bounds 4.4 %)", "n1-like: 5.3 % (min of bounds 9.7 %)"})
            QVERIFY2(text.contains(QLatin1String(expected)), qPrintable(expected + (": " + text)));
        QVERIFY(!text.contains(QStringLiteral("random:")));
        about->close();
    }

    // File ▸ Add program… opens the dialog on the window's session; when a program has been
    // added, the window opens the user database it went into with that program selected.
    void addProgramOpensTheResultWithTheProgramSelected() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString database = dir.filePath("user.sqlite");
        testing::buildTinyExplorerDatabase(database.toStdString());
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        auto* action = window.findChild<QAction*>(QStringLiteral("action_add_program"));
        QVERIFY(action);
        action->trigger();
        auto* dialog = window.findChild<ui::AddProgramDialog*>(QStringLiteral("addProgramDialog"));
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        emit dialog->programAdded(database, QStringLiteral("beta"));
        QTRY_VERIFY_WITH_TIMEOUT(session->hasDatabase() && !session->isOpening(), 30000);
        QCOMPARE(session->databasePath(), QFileInfo(database).absoluteFilePath());
        QCOMPARE(session->program(), QStringLiteral("beta"));
    }

    void emptyLibraryStillBuilds() {
        Session session;
        MainWindow window(session, PresetLibrary{});
        auto* none = window.findChild<QAction*>(QStringLiteral("preset_none"));
        QVERIFY(none);
        QVERIFY(!none->isEnabled());
        QCOMPARE(window.findChildren<QSlider*>().size(), qsizetype(20));
    }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
