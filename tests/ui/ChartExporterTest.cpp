// ChartExporter: every view to PNG (at a scale), SVG, PDF and CSV, the clipboard, "export all
// for review", and clean failures for a bad extension or an unwritable path. Offscreen: the views
// are never shown, as in the headless --export mode.
#include "ChartExporter.h"

#include "CdfView.h"
#include "PhasesView.h"
#include "ShapleyView.h"
#include "TimeseriesView.h"
#include "explore/BoundResources.h"

#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QMimeData>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace concorde;
using namespace concorde::ui;

namespace {

RegionBoundsSeries series() {
    std::vector<std::vector<float>> bounds(BoundResources::count());
    for (std::size_t r = 0; r < bounds.size(); ++r)
        for (int w = 0; w < 30; ++w)
            bounds[r].push_back(0.5f * float(r + 1) + 0.05f * float(w % 5));
    return RegionBoundsSeries::fromBounds(std::move(bounds), "prog, region 0"); // comma: quoted
}

AttributionReport report() {
    AttributionReport r;
    r.players = PlayerSet::defaultGroups();
    for (const char* name : {"alpha", "beta"}) {
        ProgramAttribution p;
        p.program = name;
        p.total.baselineCpi = 1.0;
        p.total.targetCpi = 1.2;
        for (std::size_t i = 0; i < r.players.size(); ++i)
            p.total.players.push_back({r.players[i].name, i == 0 ? 0.2 : 0.0, 0.0, i == 0});
        p.regions.push_back({"0", 100, p.total});
        r.programs.push_back(p);
    }
    return r;
}

ProgramTimeline timeline() {
    ProgramTimeline t;
    t.program = "prog";
    for (std::size_t k = 0; k < 4; ++k)
        t.entries.push_back({k, std::int64_t(k + 1), std::uint32_t(k), 100'000 * k, 100'000,
                             std::int64_t(k % 2), 1.0 + 0.1 * double(k)});
    return t;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace

class ChartExporterTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    CdfView cdf_;
    TimeseriesView timeseries_;
    ShapleyView shapley_;
    PhasesView phases_;

    QList<ChartView*> views() { return {&cdf_, &timeseries_, &shapley_, &phases_}; }
    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        cdf_.setSeries(series());
        timeseries_.setSeries(series());
        shapley_.setReport(report());
        phases_.setTimeline(timeline());
    }

    void formatsByExtension() {
        QCOMPARE(ChartExporter::formatOf("a.png"), ChartExporter::Format::Png);
        QCOMPARE(ChartExporter::formatOf("dir.v2/A.SVG"), ChartExporter::Format::Svg);
        QCOMPARE(ChartExporter::formatOf("a.pdf"), ChartExporter::Format::Pdf);
        QCOMPARE(ChartExporter::formatOf("a.csv"), ChartExporter::Format::Csv);
        QVERIFY(!ChartExporter::formatOf("a.jpg"));
        QVERIFY(!ChartExporter::formatOf("png"));
        QCOMPARE(ChartExporter::extensions(), QStringList({"png", "svg", "pdf", "csv"}));
    }

    void everyViewToEveryFormat() {
        for (ChartView* view : views()) {
            const QString base = view->viewName();
            QString error;
            QVERIFY2(ChartExporter::exportView(*view, path(base + ".png"), {}, &error),
                     qPrintable(error));
            QVERIFY(readAll(path(base + ".png")).startsWith("\x89PNG\r\n\x1a\n"));
            const QImage image(path(base + ".png"));
            QCOMPARE(image.size(), view->defaultExportSize()); // never shown: the default size

            QVERIFY2(ChartExporter::exportView(*view, path(base + ".svg"), {}, &error),
                     qPrintable(error));
            const QByteArray svg = readAll(path(base + ".svg"));
            QVERIFY(svg.contains("<svg"));
            QVERIFY(svg.contains("</svg>"));

            QVERIFY2(ChartExporter::exportView(*view, path(base + ".pdf"), {}, &error),
                     qPrintable(error));
            QVERIFY(readAll(path(base + ".pdf")).startsWith("%PDF"));
            QVERIFY(!QFile::exists(path(base + ".pdf.part")));

            QVERIFY2(ChartExporter::exportView(*view, path(base + ".csv"), {}, &error),
                     qPrintable(error));
            const QByteArray csv = readAll(path(base + ".csv"));
            const QList<QByteArray> lines = csv.split('\n');
            QCOMPARE(QString::fromUtf8(lines.first()), view->dataTable().header.join(','));
            QCOMPARE(lines.size() - 2, view->dataTable().rows.size()); // + header, + final ""
        }
        // The CSV columns of each view.
        QVERIFY(readAll(path("cdf.csv")).startsWith("resource,ipc_bound,cumulative_fraction,"));
        QVERIFY(
            readAll(path("timeseries.csv")).startsWith("window,segment,first_instruction,rob,"));
        QVERIFY(readAll(path("timeseries.csv")).contains("\"prog, region 0\""));
        QVERIFY(readAll(path("shapley.csv")).startsWith("program,region,player,cpi_change,"));
        QVERIFY(readAll(path("phases.csv")).startsWith("position,region_index,"));
    }

    void pngAtAScaleAndSize() {
        ChartExporter::Options options;
        options.size = QSize(640, 400);
        options.scale = 2.0;
        QString error;
        QVERIFY2(ChartExporter::exportView(cdf_, path("scaled.png"), options, &error),
                 qPrintable(error));
        QCOMPARE(QImage(path("scaled.png")).size(), QSize(1280, 800));
        const QImage image = ChartExporter::renderImage(cdf_, options);
        QCOMPARE(image.size(), QSize(1280, 800));
        // Something was drawn: not a single colour.
        QSet<QRgb> colours;
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, image.height() / 2));
        QVERIFY(colours.size() > 2);
    }

    void failuresAreCleanAndSayWhy() {
        QString error;
        QVERIFY(!ChartExporter::exportView(cdf_, path("chart.jpg"), {}, &error));
        QVERIFY2(error.contains("unknown file type 'jpg'") && error.contains(".png"),
                 qPrintable(error));
        QVERIFY(!QFile::exists(path("chart.jpg")));

        const QString missing = path("no-such-folder/chart.png");
        QVERIFY(!ChartExporter::exportView(cdf_, missing, {}, &error));
        QVERIFY2(error.contains("does not exist"), qPrintable(error));
        for (const QString& type : ChartExporter::extensions()) {
            const QString target = path("no-such-folder/chart.") + type;
            QVERIFY(!ChartExporter::exportView(cdf_, target, {}, &error));
            QVERIFY(!QFile::exists(target));
        }

        QVERIFY(QDir(dir_.path()).mkdir("folder.png"));
        QVERIFY(!ChartExporter::exportView(cdf_, path("folder.png"), {}, &error));
        QVERIFY2(error.contains("is a folder"), qPrintable(error));

        QVERIFY(!ChartExporter::exportView(cdf_, QString(), {}, &error));
        QVERIFY(!error.isEmpty());

        // A read-only file is refused (root may write anywhere, so only when the OS says so).
        const QString readOnly = path("read-only.csv");
        {
            QFile f(readOnly);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("keep\n");
        }
        QFile::setPermissions(readOnly, QFile::ReadOwner);
        if (!QFileInfo(readOnly).isWritable()) {
            QVERIFY(!ChartExporter::exportView(cdf_, readOnly, {}, &error));
            QCOMPARE(readAll(readOnly), QByteArray("keep\n"));
        }
    }

    void exportAllForReview() {
        const QString folder = path("review/today");
        QString error;
        QStringList written;
        QVERIFY2(ChartExporter::exportAll(views(), folder, {}, {}, &error, &written),
                 qPrintable(error));
        QCOMPARE(written.size(), 16);
        for (const char* name : {"cdf", "timeseries", "shapley", "phases"})
            for (const QString& type : ChartExporter::extensions())
                QVERIFY2(QFile::exists(folder + "/" + name + "." + type), name);
        QVERIFY(readAll(folder + "/phases.pdf").startsWith("%PDF"));

        written.clear();
        QVERIFY(ChartExporter::exportAll(views(), path("pngs"), {"png"}, {}, &error, &written));
        QCOMPARE(written.size(), 4);

        // An unwritable folder fails with a message.
        QFile blocker(path("blocker"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QVERIFY(!ChartExporter::exportAll(views(), path("blocker/sub"), {}, {}, &error));
        QVERIFY2(error.contains("cannot create the folder"), qPrintable(error));
    }

    void copyToClipboard() {
        ChartExporter::Options options;
        options.size = QSize(400, 300);
        ChartExporter::copyToClipboard(phases_, options);
        const QMimeData* data = QGuiApplication::clipboard()->mimeData();
        QVERIFY(data);
        QVERIFY(data->hasImage());
        QCOMPARE(qvariant_cast<QImage>(data->imageData()).size(), QSize(400, 300));
        QCOMPARE(data->text(), phases_.dataTable().toCsv());
    }

    void csvQuoting() {
        ChartTable table;
        table.header = {"a", "b"};
        table.rows = {{"plain", "with, comma"}, {"with \"quote\"", "line\nbreak"}};
        QCOMPARE(table.toCsv(),
                 QString("a,b\nplain,\"with, comma\"\n\"with \"\"quote\"\"\",\"line\nbreak\"\n"));
        QCOMPARE(ChartTable::number(0.1), QString("0.1"));
        QCOMPARE(ChartTable::number(std::nan("")), QString());
    }
};

QTEST_MAIN(ChartExporterTest)
#include "ChartExporterTest.moc"
