#include "ChartExportContext.h"

#include "ChartColumnGuide.h"
#include "ChartView.h"
#include "Session.h"
#include "ViewCatalog.h"
#include "explore/ExplorerModel.h"
#include "params/ParameterSpace.h"

#include <QFileInfo>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace concorde::ui {
namespace {

/// Parameters named in a custom configuration's name before "and N more": the title line must
/// stay one line on a slide.
constexpr int kNamedDifferences = 4;

/// "rob=256" for each parameter where `config` differs from `reference`, in ParameterSpace order.
QStringList differences(const CoreConfig& config, const CoreConfig& reference) {
    QStringList out;
    for (const ParameterSpec& spec : ParameterSpace::all())
        if (config.value(spec.id) != reference.value(spec.id))
            out << QString::fromStdString(spec.key + "=" + spec.formatValue(config.value(spec.id)));
    return out;
}

std::string utf8(const QString& text) {
    return text.toStdString();
}

} // namespace

ChartExportContext ChartExportContext::fromSession(const Session& session,
                                                   const std::vector<Preset>& presets,
                                                   const QString& selection) {
    std::vector<Preset> all = presets;
    all.insert(all.end(), session.savedPresets().begin(), session.savedPresets().end());
    ChartExportContext context;
    context.program = session.program();
    context.selection = selection == session.program() ? QString() : selection;
    context.target = session.config();
    context.baseline = session.baseline();
    context.targetName = configName(context.target, all);
    context.baselineName = configName(context.baseline, all);
    context.databasePath = session.databasePath();
    if (const ExplorerPtr& explorer = session.explorer()) {
        context.modelName = QString::fromStdString(explorer->model().name);
        // The same words as Help ▸ About (AboutText).
        context.accuracy = QString::fromStdString(explorer->accuracy().summary());
    }
    return context;
}

QString ChartExportContext::configName(const CoreConfig& config,
                                       const std::vector<Preset>& presets) {
    const Preset* nearest = nullptr;
    QStringList nearestDifferences;
    for (const Preset& preset : presets) {
        const QStringList d = differences(config, preset.config);
        if (d.isEmpty())
            return QString::fromStdString(preset.name);
        if (!nearest || d.size() < nearestDifferences.size()) {
            nearest = &preset;
            nearestDifferences = d;
        }
    }
    if (!nearest)
        return QObject::tr("custom");
    QStringList named = nearestDifferences.mid(0, kNamedDifferences);
    QString list = named.join(QStringLiteral(", "));
    if (nearestDifferences.size() > kNamedDifferences)
        list += QObject::tr(" and %1 more").arg(nearestDifferences.size() - kNamedDifferences);
    return QObject::tr("custom (%1 with %2)").arg(QString::fromStdString(nearest->name), list);
}

QString ChartExportContext::subjectOf(const ChartView& view) const {
    if (const QString own = view.subject(); !own.isEmpty())
        return own;
    switch (view.scope()) {
    case ChartView::Scope::EveryProgram:
        return QObject::tr("all programs");
    case ChartView::Scope::Selection:
        if (!selection.isEmpty())
            return selection;
        break;
    case ChartView::Scope::Program:
        break;
    }
    return program.isEmpty() ? QObject::tr("no program") : program;
}

QString ChartExportContext::titleLine(const ChartView& view) const {
    const ViewCatalog catalog = ViewCatalog::standard();
    const ViewEntry* entry = catalog.find(view.viewName());
    const QString what = entry ? entry->title : view.viewName();
    return QObject::tr("%1 · %2 · target: %3 · baseline: %4")
        .arg(what, subjectOf(view), targetName, baselineName);
}

QString ChartExportContext::footerLine() const {
    if (!footer)
        return {};
    QStringList parts{QStringLiteral("Concorde Explorer %1").arg(QStringLiteral(CONCORDE_VERSION))};
    if (!databasePath.isEmpty())
        parts << QObject::tr("database %1").arg(QFileInfo(databasePath).fileName());
    if (!accuracy.isEmpty())
        parts << accuracy;
    parts << created.date().toString(Qt::ISODate);
    return parts.join(QStringLiteral(" · "));
}

QByteArray ChartExportContext::sidecarJson(const ChartView& view, const ChartTable& table) const {
    nlohmann::json columns = nlohmann::json::array();
    for (const QString& column : table.header)
        columns.push_back(
            {{"name", utf8(column)},
             {"description", utf8(ChartColumnGuide::describe(view.viewName(), column))}});
    const auto config = [](const QString& name, const CoreConfig& c) {
        return nlohmann::json{{"name", utf8(name)}, {"parameters", c.toJson()}};
    };
    const nlohmann::json json = {
        {"generator", utf8(QStringLiteral("Concorde Explorer %1").arg(CONCORDE_VERSION))},
        {"view", utf8(view.viewName())},
        {"title", utf8(titleLine(view))},
        {"subject", utf8(subjectOf(view))},
        {"program", view.scope() == ChartView::Scope::EveryProgram ? nlohmann::json("all programs")
                                                                   : nlohmann::json(utf8(program))},
        {"selected_program", utf8(program)},
        {"target", config(targetName, target)},
        {"baseline", config(baselineName, baseline)},
        {"database", utf8(QFileInfo(databasePath).fileName())},
        {"database_path", utf8(QFileInfo(databasePath).absoluteFilePath())},
        {"model", utf8(modelName)},
        {"model_accuracy", utf8(accuracy)},
        {"date", utf8(created.toString(Qt::ISODate))},
        {"rows", table.rows.size()},
        {"columns", columns}};
    return QByteArray::fromStdString(json.dump(2) + "\n");
}

} // namespace concorde::ui
