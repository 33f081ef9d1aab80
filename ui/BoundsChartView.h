#pragma once

#include "ChartView.h"
#include "explore/RegionBoundsSeries.h"

#include <QStringList>
#include <QVector>
#include <memory>

class QCPGraph;

namespace concorde::ui {

/// The part the charts of per-window resource bounds (CdfView, TimeseriesView) share: the series
/// shown, the resources' display names and one graph per resource.
class BoundsChartView : public ChartView {
    Q_OBJECT

public:
    /// `viewName` as for ChartView; the resources are named BoundResources::labels().
    BoundsChartView(const QString& viewName, QWidget* parent = nullptr);

    /// The bounds to draw (shared, immutable).
    void setSeries(std::shared_ptr<const RegionBoundsSeries> series);
    void setSeries(RegionBoundsSeries series);
    /// Clears the data (the empty message shows).
    virtual void clear();
    const RegionBoundsSeries* series() const { return series_.get(); }
    /// Names for the resources, in RegionBoundsSeries order.
    void setResourceNames(const QStringList& names);

    /// The curve of resource `resource`, nullptr without data.
    QCPGraph* resourceGraph(int resource) const;
    bool hasData() const override;

protected:
    /// The display name of resource `resource` ("resource N" beyond the names given).
    QString resourceName(int resource) const;

    std::shared_ptr<const RegionBoundsSeries> series_;
    QVector<QCPGraph*> graphs_; ///< one per resource, filled by rebuild()

private:
    QStringList names_;
};

} // namespace concorde::ui
