#include "BoundsChartView.h"

#include "explore/BoundResources.h"

namespace concorde::ui {

BoundsChartView::BoundsChartView(const QString& viewName, QWidget* parent)
    : ChartView(viewName, parent) {
    for (const auto& label : BoundResources::labels())
        names_.push_back(QString::fromStdString(label));
}

void BoundsChartView::setSeries(std::shared_ptr<const RegionBoundsSeries> series) {
    series_ = std::move(series);
    rebuild();
}

void BoundsChartView::setSeries(RegionBoundsSeries series) {
    setSeries(std::make_shared<const RegionBoundsSeries>(std::move(series)));
}

void BoundsChartView::clear() {
    setSeries(std::shared_ptr<const RegionBoundsSeries>());
}

void BoundsChartView::setResourceNames(const QStringList& names) {
    names_ = names;
    rebuild();
}

bool BoundsChartView::hasData() const {
    return series_ && !series_->empty();
}

QCPGraph* BoundsChartView::resourceGraph(int resource) const {
    return resource >= 0 && resource < graphs_.size() ? graphs_[resource] : nullptr;
}

QString BoundsChartView::resourceName(int resource) const {
    return resource < names_.size() ? names_[resource]
                                    : QStringLiteral("resource %1").arg(resource);
}

} // namespace concorde::ui
