#pragma once

#include "BoundsChartView.h"

class QCPGraph;
class QCPItemText;
class QCPItemTracer;

namespace concorde::ui {

/// Throughput CDFs (docs/design.md §11): for the region or program shown and the current
/// configuration, one curve per resource — the empirical CDF of its per-window IPC bound
/// (Cdf::staircase) on a log IPC axis — plus the CDF of the per-window minimum (dashed). The
/// dominant binding resource (RegionBoundsSeries::dominantResource) is drawn thicker, on top, with
/// a bold legend entry and a label "ROB binds 72 % of windows"; every legend entry gives the share
/// of windows its resource binds. Hovering snaps to the nearest curve and shows the sample value
/// under the pointer and its cumulative fraction.
class CdfView : public BoundsChartView {
    Q_OBJECT

public:
    explicit CdfView(QWidget* parent = nullptr);

    /// Whether the CDF of the per-window minimum is drawn (default true).
    void setShowMinimum(bool show);

    /// The highlighted (dominant binding) resource, -1 without data.
    int highlightedResource() const;
    /// The curve of the minimum, nullptr when hidden or without data.
    QCPGraph* minimumGraph() const { return minimumGraph_; }
    /// The "binds N % of windows" label of the highlighted resource.
    QCPItemText* highlightLabel() const { return highlightLabel_; }

    /// Columns resource, ipc_bound, cumulative_fraction, binding_share: one row per distinct
    /// value of each resource's bounds (Cdf::steps), then the minimum's (resource "minimum").
    ChartTable dataTable() const override;
    QString hoverTextAt(const QPointF& pos) override;

protected:
    void rebuild() override;
    void afterLayout() override;

private:
    /// "ROB (binds 72.0 %)", "FP issue", "I-cache fills (never limits)" (every window at the 64
    /// IPC cap).
    QString legendName(int resource) const;

    bool showMinimum_ = true;
    QCPGraph* minimumGraph_ = nullptr;
    QCPItemText* highlightLabel_ = nullptr;
    QCPItemTracer* tracer_ = nullptr;
    double floor_ = 1e-2; ///< smallest x drawn (log axis)
};

} // namespace concorde::ui
