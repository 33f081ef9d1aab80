// The headless export: every format writes a valid file (PNG, SVG and PDF headers, CSV
// columns), mistakes exit non-zero with a message, and the concorde-explorer binary does the
// same from the command line without a display.
#include "HeadlessExport.h"

#include "../support/HeadlessExportRun.h"
#include "../support/TinyExplorerDatabase.h"
#include "ChartExporter.h"
#include "ViewCatalog.h"
#include "explore/ConfigChecker.h"
#include "params/ParameterSpace.h"
#include "params/PresetLibrary.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace concorde;
using concorde::ui::HeadlessExport;
using concorde::ui::ViewCatalog;
using concorde::ui::ViewEntry;

namespace {

QByteArray head(const QString& path, int bytes) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(bytes);
}

QString textOf(const QString& path) {
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    return QString::fromUtf8(file.readAll());
}

} // namespace

class HeadlessExportTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString database_;
    PresetLibrary presets_ = PresetLibrary::loadDefault();
    ViewCatalog catalog_ = ViewCatalog::standard();

    QString file(const QString& name) const { return dir_.filePath(name); }

    HeadlessExport::Request request(const QString& output) const {
        HeadlessExport::Request r;
        r.database = database_;
        r.view = QStringLiteral("overview");
        r.output = output;
        r.size = QSize(800, 500);
        return r;
    }

    int run(const HeadlessExport::Request& r, QString* messages = nullptr) {
        return test::runHeadlessExport(r, presets_, catalog_, messages);
    }

private slots:
    void initTestCase() {
        database_ = file(QStringLiteral("tiny.sqlite"));
        testing::buildTinyExplorerDatabase(database_.toStdString());
    }

    void everyFormatWritesAValidFile() {
        const struct {
            const char* name;
            QByteArray magic;
        } cases[] = {{"overview.png", QByteArray("\x89PNG\r\n\x1a\n", 8)},
                     {"overview.pdf", QByteArray("%PDF")},
                     {"overview.svg", QByteArray("<?xml")}};
        for (const auto& c : cases) {
            const QString path = file(QLatin1String(c.name));
            QString messages;
            QCOMPARE(run(request(path), &messages), 0);
            QVERIFY2(messages.isEmpty(), qPrintable(messages));
            QVERIFY2(head(path, c.magic.size()) == c.magic, c.name);
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        QVERIFY(textOf(file(QStringLiteral("overview.svg"))).contains(QStringLiteral("<svg")));
        // The PNG has the requested size.
        const QImage png(file(QStringLiteral("overview.png")));
        QCOMPARE(png.size(), QSize(800, 500));
        // Dark rendering works too (and is mostly dark); projector mode draws the overview as
        // every chart, on the projector's light background, whatever the scheme.
        HeadlessExport::Request dark = request(file(QStringLiteral("dark.png")));
        dark.theme = QStringLiteral("dark");
        QCOMPARE(run(dark), 0);
        QVERIFY(QImage(dark.output).pixelColor(2, 2).lightness() < 60);
        dark.projector = true;
        dark.output = file(QStringLiteral("projector.png"));
        QCOMPARE(run(dark), 0);
        QVERIFY(QImage(dark.output).pixelColor(2, 2).lightness() > 200);
    }

    void csvHasTheExpectedColumns() {
        HeadlessExport::Request r = request(file(QStringLiteral("overview.csv")));
        r.program = QStringLiteral("beta");
        r.preset = QStringLiteral("little");
        r.assignments = {QStringLiteral("rob=128")};
        QCOMPARE(run(r), 0);
        const QStringList lines = textOf(r.output).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0],
                 QStringLiteral("program,target_cpi,baseline_cpi,delta_percent,selected"));
        int selected = 0;
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList fields = lines[i].split(QLatin1Char(','));
            QCOMPARE(fields.size(), 5);
            QVERIFY(fields[0] == QLatin1String("alpha") || fields[0] == QLatin1String("beta"));
            bool ok = false;
            QVERIFY(fields[1].toDouble(&ok) > 0 && ok);
            QVERIFY(fields[2].toDouble(&ok) > 0 && ok);
            fields[3].toDouble(&ok);
            QVERIFY(ok);
            if (fields[4] == QLatin1String("1")) {
                ++selected;
                QCOMPARE(fields[0], QStringLiteral("beta"));
            }
        }
        QCOMPARE(selected, 1);
    }

    // Issue 18, item 6: --export sweep --param KEY sweeps that parameter (one CSV row per
    // program and grid value), and "compare" names the A/B view.
    void sweepOfAChosenParameterAndTheCompareAlias() {
        HeadlessExport::Request r = request(file(QStringLiteral("sweep.csv")));
        r.view = QStringLiteral("sweep");
        r.sweepParameter = QStringLiteral("lq");
        QCOMPARE(run(r), 0);
        const QStringList lines = textOf(r.output).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines[0], QStringLiteral("program,parameter,value,cpi,cpi_low,cpi_high"));
        // alpha, beta and the geometric mean, at the tiny grid's two lq values.
        QCOMPARE(lines.size(), 1 + 3 * 2);
        QStringList values;
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList fields = lines[i].split(QLatin1Char(','));
            QCOMPARE(fields[1], QStringLiteral("lq"));
            values << fields[2];
        }
        QVERIFY(values.contains(QStringLiteral("16")) && values.contains(QStringLiteral("48")));

        r = request(file(QStringLiteral("compare.csv")));
        r.view = QStringLiteral("compare");
        QCOMPARE(run(r), 0);
        QVERIFY(textOf(r.output).startsWith(QStringLiteral(
            "program,cpi_a,cpi_a_low,cpi_a_high,cpi_b,cpi_b_low,cpi_b_high,speedup")));
    }

    // Issue 18, item 8: the sweep's data equal `concorde predict` of the same configuration at
    // every grid value, for every program (the CLI takes no off-grid value, so the target is
    // given on the tiny grid).
    void sweepEqualsConcordePredictAtEveryValue() {
        const QString concorde =
            qEnvironmentVariable("CONCORDE_BIN_DIR", QStringLiteral(CONCORDE_BINARY_DIR "/bin")) +
            QStringLiteral("/concorde");
        QVERIFY2(QFileInfo(concorde).isExecutable(), qPrintable(concorde));
        const CoreConfig target = ConfigChecker(ParameterGrid(testing::tinyExplorerGrid()), {})
                                      .snap(presets_.require("n1-like").config);
        QStringList assignments;
        for (const ParameterSpec& spec : ParameterSpace::all())
            assignments << QString::fromStdString(spec.key + "=" +
                                                  spec.formatValue(target.value(spec.id)));
        HeadlessExport::Request r = request(file(QStringLiteral("sweep-lq.csv")));
        r.view = QStringLiteral("sweep");
        r.sweepParameter = QStringLiteral("lq");
        r.assignments = assignments;
        QCOMPARE(run(r), 0);
        const QStringList lines = textOf(r.output).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        int compared = 0;
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList f = lines[i].split(QLatin1Char(','));
            if (f[0] == QLatin1String("geometric_mean"))
                continue;
            QStringList args = {"predict", "--db", database_, "--program", f[0], "--json"};
            for (const QString& a : assignments)
                args << "--set" << (a.startsWith("lq=") ? "lq=" + f[2] : a);
            QProcess predict;
            predict.start(concorde, args);
            QVERIFY(predict.waitForFinished(60000));
            QVERIFY2(predict.exitCode() == 0, predict.readAllStandardError().constData());
            const auto json = nlohmann::json::parse(predict.readAllStandardOutput().toStdString());
            const double cpi = json.at("cpi").get<double>();
            QVERIFY2(std::abs(f[3].toDouble() - cpi) <= 1e-6 * cpi,
                     qPrintable(lines[i] + QStringLiteral(" vs predict %1").arg(cpi)));
            ++compared;
        }
        QCOMPARE(compared, 2 * 2); // alpha and beta at the tiny grid's two lq values
    }

    // The Shapley export opens the database for the target and the baseline only (every
    // coalition mixes their values), and writes exactly what the whole grid gives.
    void shapleyNeedsOnlyTheTargetAndBaseline() {
        const ViewEntry* shapley = catalog_.find(QStringLiteral("shapley"));
        QVERIFY(shapley);
        QVERIFY(!shapley->predictsTheWholeGrid);
        ViewEntry whole = *shapley;
        whole.predictsTheWholeGrid = true;
        ViewCatalog wholeCatalog;
        wholeCatalog.add(whole);
        for (const QString& program : {QString(), QStringLiteral("beta")}) {
            HeadlessExport::Request r = request(file(QStringLiteral("shapley-part.csv")));
            r.view = QStringLiteral("shapley");
            r.program = program;
            r.preset = QStringLiteral("little");
            QCOMPARE(run(r), 0);
            HeadlessExport::Request w = r;
            w.output = file(QStringLiteral("shapley-whole.csv"));
            QString text;
            QTextStream err(&text);
            QCOMPARE(HeadlessExport::run(w, presets_, wholeCatalog, err), 0);
            QVERIFY(!textOf(r.output).isEmpty());
            QCOMPARE(textOf(r.output), textOf(w.output));
        }
    }

    // The sweep and the sensitivity exports precompute only their own configurations' values
    // (ViewEntry::alsoPredicts), the validation export only the target's and the baseline's
    // (ModelValidation predicts the other labels from their regions' series): each writes
    // exactly what the whole grid gives. The labels sit where neither the target nor the
    // baseline (both n1-like) has a value, so none of them is precomputed.
    void sweepSensitivityAndValidationNeedOnlyTheirConfigurations() {
        const QString labelled = file(QStringLiteral("labelled.sqlite"));
        QVERIFY(QFile::copy(database_, labelled));
        const BoundsGrid grid = testing::tinyExplorerGrid();
        CoreConfig on =
            ConfigChecker(ParameterGrid(grid), {}).snap(presets_.require("n1-like").config);
        for (const ParameterSpec& spec : ParameterSpace::all()) {
            const std::vector<double>& values = grid[index(spec.id)];
            if (values.size() == 2)
                on.set(spec.id, values[0] == on.value(spec.id) ? values[1] : values[0]);
        }
        CoreConfig off = on;
        off.set(ParamId::Rob, 80); // not on the tiny grid
        testing::addTinyLabels(labelled.toStdString(), on, off);
        for (const QString& id : {QStringLiteral("sweep"), QStringLiteral("sensitivity"),
                                  QStringLiteral("validation")}) {
            const ViewEntry* view = catalog_.find(id);
            QVERIFY(view);
            QVERIFY(!view->predictsTheWholeGrid);
            ViewEntry whole = *view;
            whole.predictsTheWholeGrid = true;
            ViewCatalog wholeCatalog;
            wholeCatalog.add(whole);
            for (const QString& program : {QString(), QStringLiteral("beta")}) {
                HeadlessExport::Request r = request(file(id + QStringLiteral("-part.csv")));
                r.database = labelled;
                r.view = id;
                r.program = program;
                r.preset = QStringLiteral("n1-like");
                r.baselinePreset = QStringLiteral("n1-like");
                r.sweepParameter = QStringLiteral("lq");
                QCOMPARE(run(r), 0);
                HeadlessExport::Request w = r;
                w.output = file(id + QStringLiteral("-whole.csv"));
                QString text;
                QTextStream err(&text);
                QCOMPARE(HeadlessExport::run(w, presets_, wholeCatalog, err), 0);
                const QString part = textOf(r.output);
                QVERIFY(part.count(QLatin1Char('\n')) >= 3);
                QCOMPARE(part, textOf(w.output));
            }
        }
    }

    void mistakesExitNonZeroWithAMessage() {
        const auto expectError = [&](HeadlessExport::Request r, const char* needle) {
            QString messages;
            const int code = run(r, &messages);
            QVERIFY2(code == 2, qPrintable(messages));
            QVERIFY2(messages.contains(QLatin1String(needle)), qPrintable(messages));
            QVERIFY2(!QFileInfo::exists(r.output), qPrintable(r.output));
        };
        HeadlessExport::Request r = request(file(QStringLiteral("x.png")));
        r.view = QStringLiteral("histogram");
        expectError(r, "unknown view 'histogram' (available: overview");
        r = request(file(QStringLiteral("x.png")));
        r.program = QStringLiteral("gamma");
        expectError(r, "no program 'gamma' (it has: alpha, beta)");
        r = request(file(QStringLiteral("x.png")));
        r.assignments = {QStringLiteral("robb=128")};
        expectError(r, "unknown parameter 'robb'");
        r.assignments = {QStringLiteral("rob=4096")};
        expectError(r, "rob");
        r = request(file(QStringLiteral("x.png")));
        r.preset = QStringLiteral("huge");
        expectError(r, "huge");
        r = request(file(QStringLiteral("x.gif")));
        expectError(r, "use .png, .svg, .pdf or .csv");
        r = request(QString());
        expectError(r, "needs an output file");
        r = request(file(QStringLiteral("x.png")));
        r.database = file(QStringLiteral("missing.sqlite"));
        expectError(r, "missing.sqlite");
        r = request(file(QStringLiteral("x.png")));
        r.theme = QStringLiteral("sepia");
        expectError(r, "unknown theme");
        r = request(file(QStringLiteral("x.csv")));
        r.view = QStringLiteral("sweep");
        r.sweepParameter = QStringLiteral("robb");
        expectError(r, "unknown parameter 'robb' for --param");

        // A directory that does not exist: the write fails (exit 1).
        r = request(file(QStringLiteral("no/such/dir/x.png")));
        QString messages;
        QCOMPARE(run(r, &messages), 1);
        QVERIFY(messages.contains(QStringLiteral("cannot write")));
    }

    void sizesAndFormatsParse() {
        QCOMPARE(HeadlessExport::parseSize(QStringLiteral("1920x1080")), QSize(1920, 1080));
        QVERIFY(!HeadlessExport::parseSize(QStringLiteral("big")).isValid());
        using F = ui::ChartExporter::Format;
        QCOMPARE(ui::ChartExporter::formatOf(QStringLiteral("a/B.PNG")), F::Png);
        QCOMPARE(ui::ChartExporter::formatOf(QStringLiteral("x.svg")), F::Svg);
        QVERIFY(!ui::ChartExporter::formatOf(QStringLiteral("x.jpeg")).has_value());
        QCOMPARE(catalog_.names(),
                 (QStringList{"overview", "comparison", "cdf", "timeseries", "shapley",
                              "sensitivity", "sweep", "phases", "validation"}));
    }

    // The real binary, without a display: what scripts and CI run.
    void theCommandLineExportsWithoutADisplay() {
        const QString binary =
            qEnvironmentVariable("CONCORDE_BIN_DIR", QStringLiteral(CONCORDE_BINARY_DIR "/bin")) +
            QStringLiteral("/concorde-explorer");
        QVERIFY2(QFileInfo::exists(binary), qPrintable(binary));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));

        const auto runBinary = [&](const QStringList& args, QString* out) {
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(binary, args);
            if (!process.waitForFinished(60000))
                return -1;
            if (out)
                *out = QString::fromUtf8(process.readAllStandardOutput() +
                                         process.readAllStandardError());
            return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
        };
        const QString png = file(QStringLiteral("cli.png"));
        QString out;
        QCOMPARE(runBinary({database_, QStringLiteral("--export"), QStringLiteral("overview"),
                            QStringLiteral("--preset"), QStringLiteral("n1-like"),
                            QStringLiteral("--set"), QStringLiteral("rob=64"),
                            QStringLiteral("--program"), QStringLiteral("beta"),
                            QStringLiteral("-o"), png},
                           &out),
                 0);
        QCOMPARE(head(png, 4), QByteArray("\x89PNG", 4));
        QCOMPARE(runBinary({database_, QStringLiteral("--export"), QStringLiteral("cdfs"),
                            QStringLiteral("-o"), file(QStringLiteral("y.png"))},
                           &out),
                 2);
        QVERIFY2(out.contains(QStringLiteral("unknown view 'cdfs'")), qPrintable(out));
        QCOMPARE(runBinary({QStringLiteral("--help")}, &out), 0);
        for (const char* documented : {"--export", "-o", "--program", "--preset", "--set",
                                       ".png|.svg|.pdf|.csv", "overview"})
            QVERIFY2(out.contains(QLatin1String(documented)), documented);
    }
};

QTEST_MAIN(HeadlessExportTest)
#include "HeadlessExportTest.moc"
