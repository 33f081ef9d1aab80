#include "TimeseriesPage.h"

#include "ExplorerBounds.h"
#include "Session.h"
#include "TimeseriesView.h"
#include "explore/ReferenceIpc.h"
#include "explore/ReferenceIpcCache.h"
#include "explore/ExplorerModel.h"
#include "store/FeatureDatabase.h"

#include <cmath>
#include <exception>
#include <limits>

namespace concorde::ui {

TimeseriesPage::TimeseriesPage(Session& session, ExplorerBounds* bounds, QWidget* parent)
    : ChartPage(session, bounds, parent) {
    setObjectName(QStringLiteral("view_timeseries"));
    view_ = new TimeseriesView(this);
    setView(view_);
    followSeries();
}

TimeseriesPage::~TimeseriesPage() = default;

const ReferenceIpcCache*
TimeseriesPage::referenceLabels(const std::vector<std::int64_t>& regionIds) {
    const ExplorerPtr& explorer = session().explorer();
    if (!explorer)
        return nullptr;
    if (!reference_ || referenceFor_.lock() != explorer) {
        reference_.reset();
        explorer->withDatabase([&](FeatureDatabase& database) {
            reference_ = std::make_unique<ReferenceIpcCache>(database);
        });
        referenceFor_ = explorer;
    }
    bool missing = false;
    for (const std::int64_t id : regionIds)
        missing = missing || !reference_->holds(id);
    if (missing)
        explorer->withDatabase(
            [&](FeatureDatabase& database) { reference_->load(database, regionIds); });
    return reference_.get();
}

void TimeseriesPage::refresh() {
    // What the series was computed for (it may lag the sliders while the next is computed).
    const auto& series = bounds().series();
    const ExplorerBounds::Selection& shown = bounds().seriesSelection();
    const auto& data = shown.bounds;
    if (!series || !data) {
        view_->clear();
        setTitle(bounds().isLoading() ? tr("Loading the per-window bounds…")
                                      : tr("No bounds for the selection"));
        return;
    }
    view_->setWindowSize(data->windowSize());

    // The reference simulation per region, laid end to end like the series' segments.
    std::vector<std::size_t> regions;
    if (shown.region >= 0)
        regions.push_back(std::size_t(shown.region));
    else
        regions = data->regionsOf(shown.program);
    const auto& starts = series->segmentStarts();
    std::vector<float> ipc(series->windows(), std::numeric_limits<float>::quiet_NaN());
    QString description;
    int labelled = 0;
    bool exact = true;
    try {
        std::vector<std::int64_t> regionIds;
        for (std::size_t i = 0; i < regions.size() && i < starts.size(); ++i)
            regionIds.push_back(data->regions()[regions[i]].id);
        const ReferenceIpcCache* labels = referenceLabels(regionIds);
        for (std::size_t i = 0; labels && i < regionIds.size(); ++i) {
            const ReferenceIpc reference = labels->lookup(regionIds[i], shown.config);
            if (!reference.available())
                continue;
            ++labelled;
            if (description.isEmpty())
                description = QString::fromStdString(reference.describe());
            exact = exact && reference.match() == ReferenceIpc::Match::Exact;
            const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : ipc.size();
            const auto& values = reference.windowIpc();
            for (std::size_t w = starts[i], k = 0; w < end && k < values.size(); ++w, ++k)
                ipc[w] = values[k];
        }
    } catch (const std::exception&) {
        labelled = 0;
    }
    // One rebuild for the series and its overlay.
    if (labelled == 0)
        view_->setSeriesAndReference(series, {}, QString());
    else
        view_->setSeriesAndReference(
            series, std::move(ipc),
            tr("%1 of %2 regions, %3")
                .arg(labelled)
                .arg(regions.size())
                .arg(exact ? tr("exact config") : tr("nearest labelled config")));
    setTitle(tr("Per-window bounds of %1 — %2")
                 .arg(QString::fromStdString(series->label()),
                      labelled == 0 ? tr("no reference simulation")
                      : regions.size() == 1
                          ? tr("reference: %1").arg(description)
                          : tr("reference simulation overlaid (grey) where labelled")));
}

} // namespace concorde::ui
