#include "ViewCatalog.h"

#include "CdfPage.h"
#include "ComparisonPage.h"
#include "OverviewPage.h"
#include "PhasesPage.h"
#include "SensitivityPage.h"
#include "ShapleyPage.h"
#include "SweepPage.h"
#include "TimeseriesPage.h"
#include "ValidationPage.h"
#include "explore/ParameterSweep.h"
#include "explore/SensitivityRanking.h"

#include <QObject>

namespace concorde::ui {
ViewCatalog ViewCatalog::standard() {
    ViewCatalog catalog;
    catalog.add({QStringLiteral("overview"), QObject::tr("Overview"),
                 QStringLiteral("every program's CPI, target vs baseline"),
                 [](const ViewContext& c) -> ViewPage* { return new OverviewPage(c.session); }});
    catalog.add({QStringLiteral("comparison"),
                 QObject::tr("A/B"),
                 QStringLiteral("speed-up of the target over the baseline per program"),
                 [](const ViewContext& c) -> ViewPage* {
                     return new ComparisonPage(c.session, c.presets, c.bounds);
                 },
                 {},
                 false,
                 {QStringLiteral("compare")}});
    catalog.add(
        {QStringLiteral("cdf"), QObject::tr("Throughput CDFs"),
         QStringLiteral("throughput CDF per resource of the program"),
         [](const ViewContext& c) -> ViewPage* { return new CdfPage(c.session, c.bounds); }});
    catalog.add({QStringLiteral("timeseries"), QObject::tr("Bound timeseries"),
                 QStringLiteral("per-window bounds of the program, binding resource band"),
                 [](const ViewContext& c) -> ViewPage* {
                     return new TimeseriesPage(c.session, c.bounds);
                 }});
    // Every Shapley coalition mixes the baseline's and the target's values: nothing besides.
    catalog.add({QStringLiteral("shapley"), QObject::tr("Shapley attribution"),
                 QStringLiteral("Shapley attribution of baseline -> target per program"),
                 [](const ViewContext& c) -> ViewPage* {
                     auto* page = new ShapleyPage(c.session, c.presets, c.bounds);
                     if (!c.bounds) // headless: the report is the chart, computed now
                         page->computeNow();
                     return page;
                 }});
    catalog.add(
        {QStringLiteral("sensitivity"), QObject::tr("Sensitivity"),
         QStringLiteral("CPI change of every parameter one grid step down and up"),
         [](const ViewContext& c) -> ViewPage* { return new SensitivityPage(c.session, c.bounds); },
         [](const PredictionScope& s) {
             return SensitivityRanking::configurations(s.grid, s.target);
         }});
    catalog.add(
        {QStringLiteral("sweep"), QObject::tr("Sweep"),
         QStringLiteral("every program's CPI across one parameter's grid"),
         [](const ViewContext& c) -> ViewPage* { return new SweepPage(c.session, c.bounds); },
         [](const PredictionScope& s) {
             return ParameterSweep::configurations(s.grid, s.target, s.swept);
         }});
    catalog.add(
        {QStringLiteral("phases"), QObject::tr("Phases"),
         QStringLiteral("the program's regions coloured by phase, predicted CPI"),
         [](const ViewContext& c) -> ViewPage* { return new PhasesPage(c.session, c.bounds); }});
    catalog.add({QStringLiteral("validation"), QObject::tr("Validation"),
                 QStringLiteral("predicted vs simulated CPI of every label"),
                 [](const ViewContext& c) -> ViewPage* {
                     return new ValidationPage(c.session, c.bounds);
                 }});
    return catalog;
}

void ViewCatalog::add(ViewEntry view) {
    for (ViewEntry& existing : views_)
        if (existing.id == view.id) {
            existing = std::move(view);
            return;
        }
    views_.push_back(std::move(view));
}

const ViewEntry* ViewCatalog::find(const QString& id) const {
    for (const ViewEntry& view : views_)
        if (view.id == id || view.aliases.contains(id))
            return &view;
    return nullptr;
}

QStringList ViewCatalog::names() const {
    QStringList names;
    for (const ViewEntry& view : views_)
        names << view.id;
    return names;
}

} // namespace concorde::ui
