#include "ChartColumnGuide.h"

#include "explore/BoundResources.h"

#include <QHash>
#include <QObject>

namespace concorde::ui {
namespace {

using Guide = QHash<QString, QString>;

/// Column → description, per view.
const QHash<QString, Guide>& guides() {
    static const QHash<QString, Guide> all = {
        {QStringLiteral("overview"),
         {{"program", QObject::tr("program name")},
          {"target_cpi", QObject::tr("predicted CPI of the program on the target")},
          {"baseline_cpi", QObject::tr("predicted CPI of the program on the baseline")},
          {"delta_percent", QObject::tr("target CPI against baseline CPI, in % (negative: the "
                                        "target is faster)")},
          {"selected", QObject::tr("1 for the program selected in the explorer, else 0")}}},
        {QStringLiteral("comparison"),
         {{"program", QObject::tr("program name, or \"geometric mean\" over every program")},
          {"cpi_a", QObject::tr("predicted CPI on A, the baseline")},
          {"cpi_a_low",
           QObject::tr("low end of the model's band around cpi_a (empty for the geometric mean)")},
          {"cpi_a_high", QObject::tr("high end of the model's band around cpi_a")},
          {"cpi_b", QObject::tr("predicted CPI on B, the target")},
          {"cpi_b_low", QObject::tr("low end of the model's band around cpi_b")},
          {"cpi_b_high", QObject::tr("high end of the model's band around cpi_b")},
          {"speedup", QObject::tr("cpi_a / cpi_b: speed-up of B over A (above 1: B is faster)")}}},
        {QStringLiteral("cdf"),
         {{"resource", QObject::tr("the bounding resource, or \"minimum\" for the minimum of "
                                   "every bound")},
          {"ipc_bound", QObject::tr("an IPC bound value (instructions per cycle)")},
          {"cumulative_fraction",
           QObject::tr("fraction of the windows whose bound is at most ipc_bound")},
          {"binding_share", QObject::tr("fraction of the windows this resource binds (has the "
                                        "lowest bound); empty for the minimum")}}},
        {QStringLiteral("timeseries"),
         {{"window", QObject::tr("window number, in execution order over the regions shown")},
          {"segment", QObject::tr("the region the window belongs to")},
          {"first_instruction",
           QObject::tr("index of the window's first instruction within its region")},
          {"minimum", QObject::tr("the lowest of the window's IPC bounds")},
          {"binding_resource", QObject::tr("the resource with the lowest bound in the window")},
          {"simulated_ipc", QObject::tr("the reference simulator's IPC for the window, empty "
                                        "when the database has none")}}},
        {QStringLiteral("shapley"),
         {{"program", QObject::tr("program name")},
          {"region", QObject::tr("region index, or \"all\" for the whole program")},
          {"player", QObject::tr("the parameter group switched from baseline to target")},
          {"cpi_change", QObject::tr("CPI change attributed to the player (Shapley value; "
                                     "negative: it lowers CPI)")},
          {"baseline_cpi", QObject::tr("predicted CPI on the baseline")},
          {"target_cpi", QObject::tr("predicted CPI on the target")}}},
        {QStringLiteral("sensitivity"),
         {{"parameter", QObject::tr("the parameter stepped (command-line key)")},
          {"direction", QObject::tr("\"down\" or \"up\": one grid step below or above")},
          {"value", QObject::tr("the parameter's value in the target")},
          {"cpi", QObject::tr("predicted CPI at the target")},
          {"step_value", QObject::tr("the parameter's value one grid step away")},
          {"step_cpi", QObject::tr("predicted CPI with the parameter at step_value")},
          {"change_percent", QObject::tr("step_cpi against cpi, in %")}}},
        {QStringLiteral("sweep"),
         {{"program", QObject::tr("program name, or \"geometric_mean\" over every program")},
          {"parameter", QObject::tr("the parameter swept (command-line key)")},
          {"value", QObject::tr("the parameter's grid value; the other parameters are the "
                                "target's")},
          {"cpi", QObject::tr("predicted CPI at that value")},
          {"cpi_low", QObject::tr("reserved for a lower CPI bound; empty")},
          {"cpi_high", QObject::tr("reserved for an upper CPI bound; empty")}}},
        {QStringLiteral("phases"),
         {{"position", QObject::tr("the region's position in execution order (0 first)")},
          {"region_index", QObject::tr("the region's index within the program")},
          {"region_id", QObject::tr("the region's id in the database")},
          {"program_start", QObject::tr("index of the region's first instruction in the program")},
          {"instructions", QObject::tr("instructions the region measures")},
          {"phase", QObject::tr("the phase (cluster) the region belongs to; empty when none")},
          {"predicted_cpi", QObject::tr("predicted CPI of the region on the target")}}},
        {QStringLiteral("validation"),
         {{"program", QObject::tr("program name")},
          {"region", QObject::tr("region index within the program")},
          {"source", QObject::tr("where the label's configuration comes from (\"random\", "
                                 "\"preset:n1-like\"...)")},
          {"simulated_cpi", QObject::tr("the reference simulator's CPI (the label)")},
          {"predicted_cpi", QObject::tr("the model's predicted CPI for the same configuration")},
          {"error_percent", QObject::tr("predicted against simulated, in %")},
          {"held_out", QObject::tr("1 when the model never trained on the program, else 0")}}},
    };
    return all;
}

} // namespace

QString ChartColumnGuide::describe(const QString& view, const QString& column) {
    const Guide guide = guides().value(view);
    if (const auto it = guide.find(column); it != guide.end())
        return it.value();
    if (view == QLatin1String("timeseries")) { // one column per resource: its bound
        const auto resource = BoundResources::find(column.toStdString());
        if (resource)
            return QObject::tr("the window's IPC bound from the %1")
                .arg(QString::fromStdString(BoundResources::labels()[*resource]));
        if (column.startsWith(QLatin1String("resource_")))
            return QObject::tr("the window's IPC bound from resource %1").arg(column.mid(9));
    }
    return {};
}

} // namespace concorde::ui
