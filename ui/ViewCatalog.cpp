#include "ViewCatalog.h"

#include "CdfPage.h"
#include "CdfView.h"
#include "OverviewView.h"
#include "PhasesPage.h"
#include "PhasesView.h"
#include "ShapleyPage.h"
#include "ShapleyView.h"
#include "TimeseriesPage.h"
#include "TimeseriesView.h"

namespace concorde::ui {

ViewCatalog ViewCatalog::standard() {
    ViewCatalog catalog;
    catalog.add({QStringLiteral("overview"),
                 QStringLiteral("every program's CPI, target vs baseline"),
                 [](Session& session) -> QWidget* { return new OverviewView(session); },
                 [](QWidget* view) { return static_cast<OverviewView*>(view)->plot(); },
                 [](QWidget* view) { return static_cast<OverviewView*>(view)->csv(); }});
    const auto chartPlot = [](QWidget* view) {
        return static_cast<ChartPage*>(view)->chartView()->plot();
    };
    const auto chartCsv = [](QWidget* view) {
        return static_cast<ChartPage*>(view)->chartView()->dataTable().toCsv();
    };
    catalog.add(
        {QStringLiteral("cdf"), QStringLiteral("throughput CDF per resource of the program"),
         [](Session& session) -> QWidget* { return new CdfPage(session); }, chartPlot, chartCsv});
    catalog.add({QStringLiteral("timeseries"),
                 QStringLiteral("per-window bounds of the program, binding resource band"),
                 [](Session& session) -> QWidget* { return new TimeseriesPage(session); },
                 chartPlot, chartCsv});
    catalog.add({QStringLiteral("shapley"),
                 QStringLiteral("Shapley attribution of baseline -> target per program"),
                 [](Session& session) -> QWidget* {
                     auto* page = new ShapleyPage(session, {});
                     page->computeNow();
                     return page;
                 },
                 chartPlot, chartCsv});
    catalog.add({QStringLiteral("phases"),
                 QStringLiteral("the program's regions coloured by phase, predicted CPI"),
                 [](Session& session) -> QWidget* { return new PhasesPage(session); }, chartPlot,
                 chartCsv});
    return catalog;
}

void ViewCatalog::add(ExportableView view) {
    for (ExportableView& existing : views_)
        if (existing.name == view.name) {
            existing = std::move(view);
            return;
        }
    views_.push_back(std::move(view));
}

const ExportableView* ViewCatalog::find(const QString& name) const {
    for (const ExportableView& view : views_)
        if (view.name == name)
            return &view;
    return nullptr;
}

QStringList ViewCatalog::names() const {
    QStringList names;
    for (const ExportableView& view : views_)
        names << view.name;
    return names;
}

} // namespace concorde::ui
