#pragma once

#include "BoundsChartView.h"

#include <QColor>
#include <cstdint>
#include <vector>

class QCPAxisRect;
class QCPColorMap;
class QCPGraph;
class QCPItemTracer;

namespace concorde::ui {

/// Per-window bound timeseries (DESIGN §11): every resource's IPC bound per window (thin lines,
/// log IPC axis), the per-window minimum (thick, on top: the min-of-bounds IPC), the reference
/// simulator's per-window IPC overlaid (dashed) where a label exists, and under the plot a band
/// coloured by the resource binding each window. A program's regions are shown end to end with
/// their boundaries marked. Hovering shows the window, its binding resource and bound, the
/// simulated IPC and the next-tightest resources.
class TimeseriesView : public BoundsChartView {
    Q_OBJECT

public:
    explicit TimeseriesView(QWidget* parent = nullptr);

    /// Clears the data and the reference overlay.
    void clear() override;
    /// The simulated IPC per window (NaN where there is none; cut or padded with NaN to the
    /// series' length) and what it is, for the legend (e.g. ReferenceIpc::describe()).
    void setReference(std::vector<float> ipc, const QString& description);
    /// Both at once, with one rebuild (what a page does on every slider step).
    void setSeriesAndReference(std::shared_ptr<const RegionBoundsSeries> series,
                               std::vector<float> ipc, const QString& description);
    /// Instructions per window, for hover text and the axis label (default 400).
    void setWindowSize(std::uint32_t instructions);

    QCPGraph* minimumGraph() const { return minimumGraph_; }
    /// The simulated-IPC overlay, nullptr when there is none.
    QCPGraph* referenceGraph() const { return referenceGraph_; }
    /// The colour the band shows at `window`: its binding resource's (invalid without data).
    QColor bandColourAt(std::size_t window) const;
    /// The band: one cell per window holding its binding resource, nullptr without data.
    QCPColorMap* band() const { return band_; }
    QCPAxisRect* bandRect() const { return bandRect_; }

    /// Columns window, segment, first_instruction, one per resource (BoundResources block
    /// names), minimum, binding_resource, simulated_ipc: one row per window.
    ChartTable dataTable() const override;
    QString hoverTextAt(const QPointF& pos) override;
    QSize defaultExportSize() const override { return {1600, 800}; }

protected:
    void rebuild() override;

private:
    QString columnName(int resource) const;
    /// Segment of window `w` (index into segmentStarts()).
    std::size_t segmentOf(std::size_t w) const;
    double reference(std::size_t w) const;

    std::vector<float> reference_;
    QString referenceDescription_;
    std::uint32_t windowSize_ = 400;
    QCPColorMap* band_ = nullptr;
    QCPGraph* minimumGraph_ = nullptr;
    QCPGraph* referenceGraph_ = nullptr;
    QCPAxisRect* bandRect_ = nullptr;
    QCPItemTracer* tracer_ = nullptr;
};

} // namespace concorde::ui
