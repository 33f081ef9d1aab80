// Renders every chart view from a real feature database, in the light, dark and projector
// themes, to PNG files for people to look at (docs/design.md §11: screenshots of each view, normal
// and projector; fix what is illegible). Runs only when CONCORDE_SCREENSHOT_DB names a database
// with a model (e.g. data/default.sqlite after `concorde label --configs 2 --presets`); otherwise
// it is skipped. Files go to $CONCORDE_SCREENSHOT_DIR (default: the system temp folder) as
// <prefix><view>[-<theme>].png (and the light theme also as .svg, .pdf and .csv) with prefix
// $CONCORDE_SCREENSHOT_PREFIX (default "explorer-").
#include "CdfView.h"
#include "ChartExporter.h"
#include "PhasesView.h"
#include "ShapleyView.h"
#include "TimeseriesView.h"
#include "attribution/PlayerSet.h"
#include "explore/DatabaseBounds.h"
#include "explore/DatabasePredictor.h"
#include "explore/ProgramTimeline.h"
#include "explore/ReferenceIpc.h"
#include "explore/ShapleyJob.h"
#include "params/PresetLibrary.h"
#include "pipeline/DatabasePhases.h"
#include "store/FeatureDatabase.h"

#include <QDir>
#include <QtTest>
#include <cmath>
#include <limits>

using namespace concorde;
using namespace concorde::ui;

class ChartScreenshotTest : public QObject {
    Q_OBJECT

    QString dir_;
    QString prefix_;

    void save(ChartView& view, const QString& name) {
        for (const QString& theme :
             {QStringLiteral("light"), QStringLiteral("projector"), QStringLiteral("dark")}) {
            view.setTheme(ChartTheme::named(theme));
            const QString suffix = theme == QLatin1String("light") ? QString() : "-" + theme;
            const QString path = QDir(dir_).filePath(prefix_ + name + suffix + ".png");
            QString error;
            ChartExporter::Options options;
            options.size =
                theme == QLatin1String("projector") ? QSize(1600, 1000) : view.defaultExportSize();
            QVERIFY2(ChartExporter::exportView(view, path, options, &error), qPrintable(error));
            qInfo().noquote() << "wrote" << path;
            if (theme != QLatin1String("light"))
                continue;
            // The vector formats and the data too, to check them by eye.
            for (const char* type : {"svg", "pdf", "csv"}) {
                const QString file = QDir(dir_).filePath(prefix_ + name + "." + type);
                QVERIFY2(ChartExporter::exportView(view, file, options, &error), qPrintable(error));
            }
        }
    }

private slots:
    void renderEveryView() {
        const QString db = qEnvironmentVariable("CONCORDE_SCREENSHOT_DB");
        if (db.isEmpty())
            QSKIP("set CONCORDE_SCREENSHOT_DB to a database with a model to render screenshots");
        dir_ = qEnvironmentVariable("CONCORDE_SCREENSHOT_DIR", QDir::tempPath());
        prefix_ = qEnvironmentVariable("CONCORDE_SCREENSHOT_PREFIX", QStringLiteral("explorer-"));
        const QString program = qEnvironmentVariable("CONCORDE_SCREENSHOT_PROGRAM", "gzip");

        FeatureDatabase database = FeatureDatabase::openReadOnly(db.toStdString());
        const PresetLibrary presets = PresetLibrary::loadDefault();
        const CoreConfig config = presets.require("n1-like").config;
        const CoreConfig little = presets.require("little").config;
        const DatabaseBounds bounds = DatabaseBounds::load(database);
        const auto predictor =
            std::make_shared<const DatabasePredictor>(database, *database.readModel());

        // CDFs of the whole program, and of one region.
        CdfView cdf;
        cdf.setTitle(QStringLiteral("%1 \u2014 throughput CDFs, n1-like").arg(program));
        cdf.setSeries(bounds.program(program.toStdString(), config));
        save(cdf, QStringLiteral("cdf"));

        // Timeseries of region 3, with the simulated IPC of the same configuration.
        const std::size_t region = bounds.regionsOf(program.toStdString()).at(3);
        TimeseriesView timeseries;
        timeseries.setWindowSize(bounds.windowSize());
        timeseries.setTitle(QStringLiteral("%1 \u2014 per-window bounds, n1-like")
                                .arg(QString::fromStdString(bounds.regions()[region].label())));
        timeseries.setSeries(bounds.region(region, config));
        const auto reference =
            ReferenceIpc::forRegion(database, bounds.regions()[region].id, config);
        timeseries.setReference(reference.windowIpc(),
                                QString::fromStdString(reference.describe()));
        save(timeseries, QStringLiteral("timeseries"));

        // The whole program's windows, simulated IPC per region where labelled.
        const auto programSeries = bounds.program(program.toStdString(), config);
        std::vector<float> overlay;
        for (const std::size_t r : bounds.regionsOf(program.toStdString())) {
            const auto ref = ReferenceIpc::forRegion(database, bounds.regions()[r].id, config);
            const std::size_t windows = bounds.region(r, config).windows();
            for (std::size_t w = 0; w < windows; ++w)
                overlay.push_back(ref.match() == ReferenceIpc::Match::Exact &&
                                          w < ref.windowIpc().size()
                                      ? ref.windowIpc()[w]
                                      : std::numeric_limits<float>::quiet_NaN());
        }
        TimeseriesView programView;
        programView.setWindowSize(bounds.windowSize());
        programView.setTitle(QStringLiteral("%1 \u2014 every region, n1-like").arg(program));
        programView.setSeries(programSeries);
        programView.setReference(overlay, QStringLiteral("exact configuration"));
        save(programView, QStringLiteral("timeseries-program"));

        // Shapley: little -> n1-like, default groups, every program; then one program's regions.
        ShapleyJob::Request request;
        request.predictor = predictor;
        request.baseline = little;
        request.target = config;
        ShapleyView shapley;
        shapley.setConfigNames(QStringLiteral("little"), QStringLiteral("n1-like"));
        shapley.setTitle(QStringLiteral("Where the CPI goes: little \u2192 n1-like"));
        shapley.setReport(ShapleyJob::run(request));
        save(shapley, QStringLiteral("shapley"));
        shapley.setMode(ShapleyView::Mode::Regions);
        shapley.setProgram(program);
        shapley.setTitle(
            QStringLiteral("Where the CPI goes in %1, per region: little \u2192 n1-like")
                .arg(program));
        save(shapley, QStringLiteral("shapley-regions"));

        // Phases of the program (clustered now when the database stores none).
        auto timeline =
            ProgramTimeline::build(bounds, program.toStdString(), predictor.get(), config);
        if (!timeline.hasPhases()) {
            const auto phases =
                DatabasePhases::compute(database, program.toStdString(), DatabasePhases::Options{});
            std::vector<std::pair<std::int64_t, std::int64_t>> byRegion;
            for (std::size_t i = 0; i < phases.regionIds.size(); ++i)
                byRegion.emplace_back(phases.regionIds[i],
                                      std::int64_t(phases.clusters.phaseOf[i]));
            timeline.setPhases(byRegion);
        }
        PhasesView phasesView;
        phasesView.setTitle(
            QStringLiteral("%1 \u2014 regions by phase, predicted CPI (n1-like)").arg(program));
        phasesView.setTimeline(timeline);
        phasesView.setSelectedRegion(3);
        save(phasesView, QStringLiteral("phases"));
    }
};

QTEST_MAIN(ChartScreenshotTest)
#include "ChartScreenshotTest.moc"
