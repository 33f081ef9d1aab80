// Issue 23, "exported charts that stand alone": every exported chart carries a title line (view,
// program or "all programs", target and baseline names) and a footer (database, the model's
// measured accuracy as Help ▸ About gives it, date) that an option turns off; no export carries
// an interaction hint, the hover tracer or a selection mark, and the window's chart is put back
// afterwards; a CSV stays plain and gets FILE.csv.json beside it with the same context.
#include "../support/HeadlessExportRun.h"
#include "../support/ExplorerTestSession.h"
#include "../support/TinyExplorerDatabase.h"
#include "AboutText.h"
#include "CdfPage.h"
#include "CdfView.h"
#include "ChartColumnGuide.h"
#include "ChartExporter.h"
#include "ExplorerBounds.h"
#include "HeadlessExport.h"
#include "MainWindow.h"
#include "PhasesPage.h"
#include "PhasesView.h"
#include "Session.h"
#include "ViewCatalog.h"
#include "ViewPage.h"
#include "ViewTabs.h"
#include "explore/ExplorerModel.h"
#include "params/ParameterSpace.h"
#include "params/PresetLibrary.h"

#include <QAction>
#include <QClipboard>
#include <QDate>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>
#include <memory>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>

using namespace concorde;
using namespace concorde::ui;

namespace {

QString textOf(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

/// The texts of an SVG's <text> elements, entities decoded, joined by spaces: a line wrapped
/// to the chart's width reads as one.
QString svgText(const QString& path) {
    QXmlStreamReader xml(textOf(path));
    QStringList texts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
    return texts.join(QLatin1Char(' ')).simplified();
}

bool anyContains(const QStringList& texts, const QString& needle) {
    for (const QString& text : texts)
        if (text.contains(needle))
            return true;
    return false;
}

} // namespace

class StandaloneExportTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString database_;
    QString accuracy_; ///< the tiny database model's accuracy, as Help ▸ About shows it
    PresetLibrary presets_ = PresetLibrary::loadDefault();
    ViewCatalog catalog_ = ViewCatalog::standard();

    QString file(const QString& name) const { return dir_.filePath(name); }

    HeadlessExport::Request request(const QString& view, const QString& output) const {
        HeadlessExport::Request r;
        r.database = database_;
        r.view = view;
        r.output = file(output);
        r.size = QSize(1600, 900); // wide: the footer stays one line
        r.preset = QStringLiteral("n1-like");
        r.baselinePreset = QStringLiteral("little");
        return r;
    }

    int run(const HeadlessExport::Request& r, QString* messages = nullptr) {
        return test::runHeadlessExport(r, presets_, catalog_, messages);
    }

    /// A rob value of the grid that n1-like does not have.
    double otherRob() const { return presets_.require("n1-like").config.rob() == 128 ? 64 : 128; }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        database_ = file(QStringLiteral("tiny.sqlite"));
        testing::buildTinyExplorerDatabase(database_.toStdString());
        // The footer's accuracy is About's: read it from the database the way About does.
        Session session;
        QString error;
        QVERIFY2(session.openDatabaseNow(database_, &error), qPrintable(error));
        accuracy_ = QString::fromStdString(session.explorer()->accuracy().summary());
        QVERIFY(session.explorer()->accuracy().known()); // the tiny model has figures
        QVERIFY2(AboutText::html(session).contains(accuracy_.toHtmlEscaped()),
                 qPrintable(accuracy_));
        QSettings().setValue(QStringLiteral("export/footer"), true);
    }

    // The headless SVG names the view's subject, target and baseline in its title line and the
    // database, accuracy and date in its footer; a custom target is named by its nearest preset
    // and what differs from it.
    void headlessSvgHasTitleLineAndFooter() {
        HeadlessExport::Request r = request(QStringLiteral("overview"), QStringLiteral("o.svg"));
        QString messages;
        QCOMPARE(run(r, &messages), 0);
        QString svg = svgText(r.output);
        for (const QString& expected :
             {QStringLiteral("Overview"), QStringLiteral("all programs"),
              QStringLiteral("target: n1-like"), QStringLiteral("baseline: little"),
              QStringLiteral("database tiny.sqlite"), accuracy_,
              QDate::currentDate().toString(Qt::ISODate)})
            QVERIFY2(svg.contains(expected), qPrintable(expected + QStringLiteral("\n") + svg));

        // One program's chart names the program; a target off every preset is "custom".
        r = request(QStringLiteral("cdf"), QStringLiteral("cdf.svg"));
        r.program = QStringLiteral("beta");
        const QString rob = QString::number(otherRob());
        r.assignments = {QStringLiteral("rob=") + rob};
        QCOMPARE(run(r, &messages), 0);
        svg = svgText(r.output);
        for (const QString& expected :
             {QStringLiteral("Throughput CDFs"), QStringLiteral("beta"),
              QStringLiteral("target: custom (n1-like with rob=%1)").arg(rob),
              QStringLiteral("baseline: little"), accuracy_})
            QVERIFY2(svg.contains(expected), qPrintable(expected + QStringLiteral("\n") + svg));
        QVERIFY(!svg.contains(QStringLiteral("all programs")));
    }

    void noFooterLeavesOutTheFooterOnly() {
        HeadlessExport::Request r = request(QStringLiteral("overview"), QStringLiteral("nf.svg"));
        r.footer = false;
        QCOMPARE(run(r), 0);
        const QString svg = svgText(r.output);
        QVERIFY2(svg.contains(QStringLiteral("target: n1-like")), qPrintable(svg));
        QVERIFY2(!svg.contains(QStringLiteral("tiny.sqlite")), qPrintable(svg));
        QVERIFY2(!svg.contains(accuracy_), qPrintable(svg));
    }

    // CSV: the header row first, nothing above it; FILE.csv.json holds the context and a
    // description of every column, for every view.
    void csvStaysPlainWithItsContextBeside() {
        const CoreConfig little = presets_.require("little").config;
        for (const QString& view : catalog_.names()) {
            HeadlessExport::Request r = request(view, view + QStringLiteral(".csv"));
            r.program = QStringLiteral("beta");
            r.assignments = {QStringLiteral("rob=%1").arg(otherRob())};
            QString messages;
            QCOMPARE(run(r, &messages), 0);
            const QStringList lines = textOf(r.output).split(QLatin1Char('\n'));
            QVERIFY(!lines.isEmpty());
            const QStringList header = lines.first().split(QLatin1Char(','));
            QVERIFY2(!lines.first().contains(QStringLiteral("target")) ||
                         lines.first().contains(QStringLiteral("target_cpi")),
                     qPrintable(lines.first()));
            QVERIFY2(!textOf(r.output).contains(QStringLiteral("n1-like")),
                     qPrintable(view)); // no title line anywhere in it
            const QString sidecar = r.output + QStringLiteral(".json");
            QVERIFY2(QFileInfo::exists(sidecar), qPrintable(sidecar));
            const auto json = nlohmann::json::parse(textOf(sidecar).toStdString());
            QCOMPARE(QString::fromStdString(json.at("view").get<std::string>()), view);
            QCOMPARE(QString::fromStdString(json.at("database").get<std::string>()),
                     QStringLiteral("tiny.sqlite"));
            QCOMPARE(QString::fromStdString(json.at("model_accuracy").get<std::string>()),
                     accuracy_);
            QCOMPARE(QString::fromStdString(json.at("selected_program").get<std::string>()),
                     QStringLiteral("beta"));
            QVERIFY(json.at("date").get<std::string>().starts_with(
                QDate::currentDate().toString(Qt::ISODate).toStdString()));
            QCOMPARE(QString::fromStdString(json.at("target").at("name").get<std::string>()),
                     QStringLiteral("custom (n1-like with rob=%1)").arg(otherRob()));
            QCOMPARE(QString::fromStdString(json.at("baseline").at("name").get<std::string>()),
                     QStringLiteral("little"));
            // Every parameter, as the configuration has it.
            QCOMPARE(CoreConfig::fromJson(json.at("baseline").at("parameters"), true, "sidecar"),
                     little);
            QCOMPARE(
                CoreConfig::fromJson(json.at("target").at("parameters"), true, "sidecar").rob(),
                int(otherRob()));
            // The columns are the CSV's, each described.
            const auto& columns = json.at("columns");
            QCOMPARE(int(columns.size()), header.size());
            for (int i = 0; i < header.size(); ++i) {
                QCOMPARE(QString::fromStdString(columns[i].at("name").get<std::string>()),
                         header[i]);
                QVERIFY2(!columns[i].at("description").get<std::string>().empty(),
                         qPrintable(view + QLatin1Char('.') + header[i]));
            }
            QVERIFY(json.at("title").get<std::string>().find("target: custom") !=
                    std::string::npos);
        }
    }

    // The phases chart in the window says "click a region to drill in" and outlines the
    // selected region; the exported chart has neither (checked on the texts drawn while it is
    // rendered and in the SVG), carries the title line instead, and the window's chart gets
    // both back.
    void exportsLeaveOutHintsAndSelection() {
        std::unique_ptr<Session> session(testing::newTinySession());
        QVERIFY(session->openDatabaseNow(database_));
        ExplorerBounds bounds(*session);
        QVERIFY(bounds.loadNow());
        PhasesPage page(*session, &bounds);
        page.resize(1200, 700);
        page.ensureCurrent();
        PhasesView* view = page.view();
        QVERIFY(view->hasData());
        view->setSelectedRegion(1);
        const auto selectionMarks = [view] {
            int marks = 0;
            for (int i = 0; i < view->plot()->itemCount(); ++i)
                marks += view->plot()->item(i)->objectName() == QLatin1String("selection_mark") &&
                         view->plot()->item(i)->visible();
            return marks;
        };
        const QString hint = QStringLiteral("click a region");
        QVERIFY2(anyContains(view->drawnTexts(), hint), qPrintable(view->drawnTexts().join("|")));
        QCOMPARE(selectionMarks(), 1);

        // What the chart draws while the PNG is rendered (each layout pass of the render).
        QList<QStringList> rendered;
        QList<int> marksRendered;
        const auto connection = connect(view->plot(), &QCustomPlot::afterLayout, this, [&] {
            rendered << view->drawnTexts();
            marksRendered << selectionMarks();
        });
        ChartExporter::Options options;
        options.size = QSize(1200, 700);
        options.context = ChartExportContext::fromSession(*session, presets_.presets());
        QString error;
        QVERIFY2(
            ChartExporter::exportView(*view, file(QStringLiteral("phases.png")), options, &error),
            qPrintable(error));
        disconnect(connection);
        QVERIFY(!rendered.isEmpty());
        for (int i = 0; i < rendered.size(); ++i) {
            QVERIFY2(!anyContains(rendered[i], hint), qPrintable(rendered[i].join("|")));
            QVERIFY2(anyContains(rendered[i], QStringLiteral("target:")),
                     qPrintable(rendered[i].join("|")));
            QCOMPARE(marksRendered[i], 0);
        }
        QVERIFY(!QImage(file(QStringLiteral("phases.png"))).isNull());
        QVERIFY(ChartExporter::exportView(*view, file(QStringLiteral("phases.svg")), options));
        const QString svg = svgText(file(QStringLiteral("phases.svg")));
        QVERIFY2(!svg.contains(hint) && svg.contains(QStringLiteral("Phases")), qPrintable(svg));
        // Asked for, the window's state stays.
        options.keepInteractionState = true;
        QVERIFY(ChartExporter::exportView(*view, file(QStringLiteral("live.svg")), options));
        QVERIFY(svgText(file(QStringLiteral("live.svg"))).contains(hint));

        // The window's chart is as it was: the hint and the mark back, no title line or footer.
        QCOMPARE(view->renderMode(), ChartView::RenderMode::Live);
        QVERIFY(anyContains(view->drawnTexts(), hint));
        QVERIFY(!anyContains(view->drawnTexts(), QStringLiteral("target:")));
        QCOMPARE(selectionMarks(), 1);
    }

    // The hover tracer of the CDF chart (shown while the pointer is over a curve) is not drawn
    // into an export, and is back afterwards.
    void exportsLeaveOutTheHoverTracer() {
        std::unique_ptr<Session> session(testing::newTinySession());
        QVERIFY(session->openDatabaseNow(database_));
        ExplorerBounds bounds(*session);
        QVERIFY(bounds.loadNow());
        CdfPage page(*session, &bounds);
        page.resize(1000, 650);
        page.ensureCurrent();
        CdfView* view = qobject_cast<CdfView*>(page.chartView());
        QVERIFY(view && view->hasData());
        view->plot()->resize(1000, 600);
        view->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const auto visibleTracers = [view] {
            int shown = 0;
            for (int i = 0; i < view->plot()->itemCount(); ++i)
                if (auto* tracer = qobject_cast<QCPItemTracer*>(view->plot()->item(i)))
                    shown += tracer->visible();
            return shown;
        };
        // Sweep the pointer over the plot until some curve is under it.
        const QRect area = view->plot()->axisRect()->rect();
        for (int x = area.left() + 5; x < area.right() && view->lastHoverText().isEmpty(); x += 7)
            for (int y = area.top() + 5; y < area.bottom(); y += 7) {
                QMouseEvent move(QEvent::MouseMove, QPointF(x, y),
                                 view->plot()->mapToGlobal(QPointF(x, y)), Qt::NoButton,
                                 Qt::NoButton, Qt::NoModifier);
                QCoreApplication::sendEvent(view->plot(), &move);
                if (!view->lastHoverText().isEmpty())
                    break;
            }
        QVERIFY(!view->lastHoverText().isEmpty());
        QCOMPARE(visibleTracers(), 1);
        QList<int> rendered;
        const auto connection = connect(view->plot(), &QCustomPlot::afterLayout, this,
                                        [&] { rendered << visibleTracers(); });
        ChartExporter::Options options;
        options.size = QSize(1000, 600);
        QVERIFY(ChartExporter::exportView(*view, file(QStringLiteral("cdf.png")), options));
        disconnect(connection);
        QVERIFY(!rendered.isEmpty());
        for (const int shown : rendered)
            QCOMPARE(shown, 0);
        QCOMPARE(visibleTracers(), 1);
    }

    // The window's exports (current chart, export all for review) carry the same context; the
    // Export menu's footer option turns the footer off and is remembered.
    void windowExportsCarryTheContext() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openDatabase(database_);
        QVERIFY(QTest::qWaitFor(
            [&] { return session->prediction() != nullptr && window.bounds().bounds() != nullptr; },
            30000));
        QVERIFY(window.views().showView(QStringLiteral("timeseries")));
        const QString program = session->program();
        QVERIFY(!program.isEmpty());
        // The tiny session's configurations are on no preset.
        const ChartExportContext context = window.exportContext();
        QVERIFY2(context.targetName.startsWith(QStringLiteral("custom (")),
                 qPrintable(context.targetName));
        QVERIFY2(context.baselineName.startsWith(QStringLiteral("custom (")),
                 qPrintable(context.baselineName));
        QCOMPARE(context.accuracy, accuracy_);

        QVERIFY(window.exportFooter());
        QString error;
        const QString svgPath = file(QStringLiteral("window.svg"));
        QVERIFY2(window.exportCurrentChart(svgPath, &error), qPrintable(error));
        QString svg = svgText(svgPath);
        for (const QString& expected :
             {QStringLiteral("Bound timeseries"), program, QStringLiteral("target: custom ("),
              QStringLiteral("database tiny.sqlite"), accuracy_})
            QVERIFY2(svg.contains(expected), qPrintable(expected + QStringLiteral("\n") + svg));
        // The window's chart has no title line or footer.
        QVERIFY(!anyContains(window.currentChart()->drawnTexts(), QStringLiteral("target:")));
        QVERIFY(!anyContains(window.currentChart()->drawnTexts(), accuracy_));

        auto* footer = window.findChild<QAction*>(QStringLiteral("action_export_footer"));
        QVERIFY(footer && footer->isCheckable());
        footer->trigger();
        QVERIFY(!window.exportFooter());
        QCOMPARE(QSettings().value(QStringLiteral("export/footer")).toBool(), false);
        QVERIFY(window.exportCurrentChart(svgPath, &error));
        svg = svgText(svgPath);
        QVERIFY2(svg.contains(QStringLiteral("target: custom (")), qPrintable(svg));
        QVERIFY2(!svg.contains(accuracy_) && !svg.contains(QStringLiteral("tiny.sqlite")),
                 qPrintable(svg));
        footer->trigger();

        // The clipboard's image is drawn with the title line; its text is the plain CSV.
        QList<QStringList> copied;
        ChartView* chart = window.currentChart();
        const auto connection = connect(chart->plot(), &QCustomPlot::afterLayout, this,
                                        [&] { copied << chart->drawnTexts(); });
        QVERIFY(window.copyCurrentChart());
        disconnect(connection);
        QVERIFY(!copied.isEmpty());
        for (const QStringList& texts : copied) {
            const QString drawn = texts.join(QLatin1Char(' ')).simplified(); // unwrapped
            QVERIFY2(drawn.contains(QStringLiteral("Bound timeseries")) &&
                         drawn.contains(accuracy_),
                     qPrintable(drawn));
        }
        const QMimeData* clip = QGuiApplication::clipboard()->mimeData();
        QVERIFY(clip && clip->hasImage());
        QVERIFY(clip->text().startsWith(QStringLiteral("window,segment,")));

        const QString folder = file(QStringLiteral("review"));
        QStringList written;
        QVERIFY2(window.exportAllForReview(folder, &error, &written), qPrintable(error));
        for (const QString& path : written)
            if (path.endsWith(QLatin1String(".csv"))) {
                QVERIFY2(written.contains(path + QStringLiteral(".json")), qPrintable(path));
                QVERIFY(QFileInfo::exists(path + QStringLiteral(".json")));
            }
        QVERIFY(svgText(QDir(folder).filePath(QStringLiteral("overview.svg")))
                    .contains(QStringLiteral("all programs")));
    }

    // The real binary writes the same: title line and footer, no hint, --no-footer drops the
    // footer, and the CSV gets its JSON.
    void commandLineWritesTheSame() {
        const QString binary =
            qEnvironmentVariable("CONCORDE_BIN_DIR", QStringLiteral(CONCORDE_BINARY_DIR "/bin")) +
            QStringLiteral("/concorde-explorer");
        QVERIFY2(QFileInfo::exists(binary), qPrintable(binary));
        const auto runBinary = [&](const QString& view, const QStringList& extra) {
            QProcess process;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.remove(QStringLiteral("DISPLAY"));
            env.remove(QStringLiteral("QT_QPA_PLATFORM"));
            process.setProcessEnvironment(env);
            process.start(binary,
                          QStringList{database_, QStringLiteral("--export"), view,
                                      QStringLiteral("--size"), QStringLiteral("1600x900")} +
                              extra);
            return process.waitForFinished(60000) && process.exitCode() == 0;
        };
        const QString with = file(QStringLiteral("cli.svg"));
        QVERIFY(runBinary(QStringLiteral("overview"), {QStringLiteral("-o"), with}));
        for (const QString& expected :
             {QStringLiteral("all programs"), QStringLiteral("target: n1-like"),
              QStringLiteral("baseline: little"), QStringLiteral("database tiny.sqlite"),
              accuracy_})
            QVERIFY2(svgText(with).contains(expected),
                     qPrintable(expected + QStringLiteral("\n") + svgText(with)));
        const QString phases = file(QStringLiteral("cli-phases.svg"));
        QVERIFY(runBinary(QStringLiteral("phases"), {QStringLiteral("-o"), phases}));
        QVERIFY2(!svgText(phases).contains(QStringLiteral("click a region")),
                 qPrintable(svgText(phases)));
        QVERIFY(svgText(phases).contains(QStringLiteral("Region of alpha in execution order")));

        const QString without = file(QStringLiteral("cli-nf.svg"));
        QVERIFY(runBinary(QStringLiteral("overview"),
                          {QStringLiteral("--no-footer"), QStringLiteral("-o"), without}));
        QVERIFY2(!svgText(without).contains(accuracy_), qPrintable(svgText(without)));
        QVERIFY(svgText(without).contains(QStringLiteral("all programs")));
        const QString csv = file(QStringLiteral("cli.csv"));
        QVERIFY(runBinary(QStringLiteral("overview"), {QStringLiteral("-o"), csv}));
        QVERIFY(textOf(csv).startsWith(QStringLiteral("program,")));
        QVERIFY(QFileInfo::exists(csv + QStringLiteral(".json")));
        const auto json =
            nlohmann::json::parse(textOf(csv + QStringLiteral(".json")).toStdString());
        QCOMPARE(json.at("program").get<std::string>(), std::string("all programs"));
        QCOMPARE(json.at("columns").size(), std::size_t(5));
    }

    void everyColumnOfEveryViewIsDescribed() {
        // The guide knows the timeseries' per-resource columns too.
        QVERIFY(!ChartColumnGuide::describe(QStringLiteral("timeseries"), QStringLiteral("rob"))
                     .isEmpty());
        QVERIFY(ChartColumnGuide::describe(QStringLiteral("overview"), QStringLiteral("nope"))
                    .isEmpty());
    }
};

QTEST_MAIN(StandaloneExportTest)
#include "StandaloneExportTest.moc"
