#include "HeadlessExport.h"

#include "ChartExporter.h"
#include "ChartView.h"
#include "QtStrings.h"
#include "Session.h"
#include "Theme.h"
#include "ViewCatalog.h"
#include "ViewPage.h"
#include "explore/ConfigChecker.h"
#include "features/ParameterGrid.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"
#include "params/PresetLibrary.h"
#include "store/FeatureDatabase.h"

#include <QRegularExpression>
#include <QTextStream>
#include <memory>
#include <optional>

namespace concorde::ui {
namespace {

constexpr int kInputError = 2;
constexpr int kWriteError = 1;

int fail(QTextStream& err, const QString& message, int code = kInputError) {
    err << "concorde-explorer: " << message << "\n";
    err.flush();
    return code;
}

/// The configurations `view` predicts on the database at `path`: the target, the baseline and
/// the view's own (ViewEntry::alsoPredicts, placed on the database's grid). Empty, i.e. the
/// whole grid, when the view asks for it or the grid cannot be read (opening the database then
/// says why).
std::vector<CoreConfig> predictedBy(const ViewEntry& view, const QString& path,
                                    const CoreConfig& target, const CoreConfig& baseline,
                                    ParamId swept) {
    if (view.predictsTheWholeGrid)
        return {};
    std::vector<CoreConfig> only{target, baseline};
    if (!view.alsoPredicts)
        return only;
    try {
        const ParameterGrid grid(
            FeatureDatabase::openReadOnly(path.toStdString()).buildSettings().grid);
        const ConfigChecker checker(grid, {});
        const std::vector<CoreConfig> own =
            view.alsoPredicts({grid, checker.snap(target), checker.snap(baseline), swept});
        only.insert(only.end(), own.begin(), own.end());
    } catch (const std::exception&) {
        return {};
    }
    return only;
}

} // namespace

QSize HeadlessExport::parseSize(const QString& text) {
    static const QRegularExpression pattern(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
    const auto match = pattern.match(text.trimmed());
    if (!match.hasMatch())
        return {};
    return {match.captured(1).toInt(), match.captured(2).toInt()};
}

bool HeadlessExport::configure(const Request& request, const PresetLibrary& presets,
                               CoreConfig& target, CoreConfig& baseline, QString* error) {
    try {
        target = request.preset.isEmpty() ? Session::defaultTarget(presets)
                                          : presets.require(request.preset.toStdString()).config;
        for (const QString& assignment : request.assignments)
            target.applyAssignment(assignment.toStdString());
        baseline = request.baselinePreset.isEmpty()
                       ? Session::defaultBaseline(presets)
                       : presets.require(request.baselinePreset.toStdString()).config;
    } catch (const std::exception& e) {
        if (error)
            *error = toQString(e.what());
        return false;
    }
    return true;
}

int HeadlessExport::run(const Request& request, const PresetLibrary& presets,
                        const ViewCatalog& catalog, QTextStream& err) {
    // Check what can be checked without the database first: mistakes are reported at once.
    const ViewEntry* view = catalog.find(request.view);
    if (!view)
        return fail(err, QStringLiteral("unknown view '%1' (available: %2)")
                             .arg(request.view, catalog.names().join(QStringLiteral(", "))));
    std::optional<ParamId> swept;
    if (!request.sweepParameter.isEmpty()) {
        swept = ParameterSpace::find(request.sweepParameter.toStdString());
        if (!swept)
            return fail(
                err,
                QStringLiteral("unknown parameter '%1' for --param").arg(request.sweepParameter));
    }
    if (request.output.isEmpty())
        return fail(err, QStringLiteral("--export needs an output file: -o FILE (%1)")
                             .arg(ChartExporter::extensionList()));
    const auto format = ChartExporter::formatOf(request.output);
    if (!format)
        return fail(err, QStringLiteral("cannot tell the format of '%1': use %2")
                             .arg(request.output, ChartExporter::extensionList()));
    const auto scheme = Theme::schemeFromName(request.theme);
    if (!scheme)
        return fail(err, QStringLiteral("unknown theme '%1' (light or dark)").arg(request.theme));
    if (!request.size.isValid() || request.size.width() < 100 || request.size.height() < 100)
        return fail(err, QStringLiteral("bad --size: give WIDTHxHEIGHT in pixels, e.g. 1280x800"));

    CoreConfig target;
    CoreConfig baseline;
    QString error;
    if (!configure(request, presets, target, baseline, &error))
        return fail(err, error);
    if (request.database.isEmpty())
        return fail(err, QStringLiteral("no database given and no default database found"));

    Session session(target, baseline);
    session.theme().setScheme(*scheme);
    session.theme().setProjector(request.projector);
    session.theme().applyToApplication();
    if (swept)
        session.setSweptParameter(*swept);
    // Only what the chart needs: most views predict just the target and the baseline.
    const std::vector<CoreConfig> only =
        predictedBy(*view, request.database, target, baseline, session.sweptParameter());
    if (!session.openDatabaseNow(request.database, &error, only))
        return fail(err, error);
    if (const QString damage = session.damageWarning(); !damage.isEmpty()) { // not fatal
        err << "concorde-explorer: warning: " << session.damageDetails().replace('\n', "; ") << " ("
            << damage << ")\n";
        err.flush();
    }
    if (!request.program.isEmpty() && !session.setProgram(request.program))
        return fail(err, QStringLiteral("the database has no program '%1' (it has: %2)")
                             .arg(request.program, session.programs().join(QStringLiteral(", "))));
    session.recomputeNow();
    if (!session.prediction())
        return fail(err, QStringLiteral("no prediction could be computed"), kWriteError);

    const std::unique_ptr<ViewPage> page(view->create({session, nullptr, presets.presets()}));
    page->resize(request.size);
    page->ensurePolished();
    page->ensureCurrent(); // background work the chart waits for (phase clustering)
    // As the window's exports: laid out for the file's size (legend, caption wrapping).
    ChartExporter::Options options;
    options.size = request.size;
    options.context = ChartExportContext::fromSession(session, presets.presets());
    options.context->footer = request.footer;
    QString problem;
    if (!ChartExporter::exportView(*page->chartView(), request.output, options, &problem) &&
        problem.isEmpty())
        problem = QStringLiteral("cannot write %1").arg(request.output);
    if (!problem.isEmpty())
        return fail(err, problem, kWriteError);
    return 0;
}

} // namespace concorde::ui
