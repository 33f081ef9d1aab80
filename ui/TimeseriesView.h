#pragma once

#include "BoundsChartView.h"

#include <QColor>
#include <cstdint>
#include <string>
#include <vector>

class QCPAxisRect;
class QCPColorMap;
class QCPGraph;
class QCPItemTracer;

namespace concorde::ui {

/// Per-window bound timeseries (docs/design.md §11): every resource's IPC bound per window (thin
/// lines, log IPC axis), the per-window minimum (thick, on top: the min-of-bounds IPC), the
/// reference simulator's per-window IPC overlaid (dashed) where a label exists, and under the plot
/// a band coloured by the resource binding each window. A program's regions are shown end to end
/// with their boundaries marked. Hovering shows the window, its binding resource and bound, the
/// simulated IPC and the next-tightest resources.
///
/// Level of detail: while the visible x range holds at most one window per pixel, every window
/// is plotted exactly (step lines); over more, the windows under every two pixels are
/// summarised (their harmonic mean, the IPC of those windows together; for the minimum also
/// its lowest–highest range as a bar; the band stacks the share each resource binds), so a
/// program of thousands of windows draws as fast as one region and no binding dip disappears.
/// The plotted data follow x zoom/drag and the plot's width; hover text and dataTable() stay
/// exact.
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
    /// The minimum's range while summarised: per bucket of windows a vertical bar, data points
    /// (centre, lowest), (centre, highest), (centre, NaN); empty while every window is plotted,
    /// nullptr without data.
    QCPGraph* minimumRangeGraph() const { return range_; }
    /// Whether the graphs plot summaries of buckets of windows (more visible windows than
    /// pixels) rather than every window.
    bool summarised() const { return plotted_.bucket > 1; }
    /// The simulated-IPC overlay, nullptr when there is none.
    QCPGraph* referenceGraph() const { return referenceGraph_; }
    /// What the band shows at `window`: per resource, the share of its column in that
    /// resource's colour, which is the share of the windows of its bucket that the resource
    /// binds (to one cell in 24); all of it the window's binding resource where every window
    /// is plotted. Empty without data or where nothing is plotted.
    std::vector<double> bandSharesAt(std::size_t window) const;
    /// The colour covering most of the band's column at `window` (invalid where bandSharesAt()
    /// is empty).
    QColor bandColourAt(std::size_t window) const;
    /// The band: a column per plotted window or bucket, its cells (bottom up) holding the
    /// binding resources stacked by share; nullptr without data.
    QCPColorMap* band() const { return band_; }
    QCPAxisRect* bandRect() const { return bandRect_; }

    /// Columns window, segment, first_instruction, one per resource (BoundResources block
    /// names), minimum, binding_resource, simulated_ipc: one row per window.
    ChartTable dataTable() const override;
    QString hoverTextAt(const QPointF& pos) override;
    QSize defaultExportSize() const override { return {1600, 800}; }

protected:
    void rebuild() override;
    /// Plots the visible windows again when the plot's width changed (updatePlotted).
    void afterLayout() override;

private:
    /// What the graphs plot: for the visible windows [from, to) on a plot `width` pixels wide,
    /// the windows [first, last) (aligned to buckets) in buckets of `bucket` (1: every window;
    /// 0: nothing yet).
    struct Plotted {
        std::size_t from = 0, to = 0, first = 0, last = 0, bucket = 0;
        int width = 0;
    };
    /// Sets the graphs' data for the visible x range and the plot's width (cheap: only the
    /// visible windows; nothing when they are what is plotted already).
    void updatePlotted();

    // The parts rebuild() makes, in order, for a series with data.
    /// Log IPC on `y`; the windows' range on `x` unless the same series is zoomed.
    void setUpWindowAxis(QCPAxis* x, QCPAxis* y);
    /// One graph per resource, the minimum and the minimum's range per bucket.
    void addBoundGraphs(QCPAxis* x, QCPAxis* y);
    /// The simulated IPC overlay, when any window has one.
    void addReferenceGraph(QCPAxis* x, QCPAxis* y);
    /// The IPC range: what binds and what was simulated, not the loose bounds above.
    void fitIpcAxis(QCPAxis* y);
    /// Dotted lines between the regions of a program.
    void addRegionBoundaries(QCPAxis* x, QCPAxis* y);
    /// The regions' names on the top axis of `rect`.
    void addRegionNames(QCPAxisRect* rect);
    /// The band of binding resources under `rect`, sharing its window axis.
    void addBindingBand(QCPAxisRect* rect);
    /// The caption: region separators and which simulation the overlay is.
    void setNotes();

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
    QCPGraph* range_ = nullptr;
    Plotted plotted_;
    /// Resources in the band's stacking order, bottom up (most windows bound first).
    std::vector<std::uint8_t> bandOrder_;
    /// Windows and label of the series the x range was last set for: a new series of the same
    /// program or region (a slider step) keeps the user's zoom.
    std::size_t rangeWindows_ = 0;
    std::string rangeLabel_;
    QCPAxisRect* bandRect_ = nullptr;
    QCPItemTracer* tracer_ = nullptr;
};

} // namespace concorde::ui
