#include "TimeseriesView.h"

#include "ChartFormat.h"
#include "explore/BoundResources.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <qcustomplot.h>
#include <span>

namespace concorde::ui {

namespace {

/// Bounds are drawn no lower than this on the log axis (0 IPC has no place there).
double floored(double ipc) {
    return std::max(ipc, 1e-3);
}

/// A QCPGraph drawn cheaply on screen. Its line goes to Qt as one batch of separate segments,
/// which the raster engine rasterises directly at any width, whereas a wide or dashed polyline
/// is outlined and filled (slow) and phFastPolylines pays a call per segment. The area under
/// it is filled as pixel-aligned rectangles, not as one polygon of thousands of edges (whose
/// scanline fill took 20 ms). Exports draw QCustomPlot's way: true polylines and polygons,
/// which vector files need.
class WindowGraph : public QCPGraph {
public:
    WindowGraph(QCPAxis* key, QCPAxis* value) : QCPGraph(key, value) {}
    /// Draws vertical segments as bars as wide as the pen (on screen rectangles, which the
    /// raster engine fills more than twice as fast as wide lines), and the legend icon as a
    /// swatch of the pen's colour.
    void setBars(bool bars) { bars_ = bars; }

protected:
    void drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const override {
        if (exporting(painter)) {
            QCPGraph::drawLinePlot(painter, lines);
            return;
        }
        if (painter->pen().style() == Qt::NoPen || painter->pen().color().alpha() == 0)
            return;
        // Aliased on screen, on whole pixels: antialiased wide segments cost three times as
        // much. Exports keep the graph's antialiasing.
        painter->setAntialiasing(false);
        if (bars_) {
            const double half = 0.5 * std::max(1.0, painter->pen().widthF());
            QVector<QRect> rects;
            rects.reserve(lines.size() / 3 + 1);
            for (int i = 1; i < lines.size(); ++i)
                if (finite(lines[i - 1]) && finite(lines[i])) {
                    const QPointF& p = lines[i - 1];
                    const int left = qRound(p.x() - half),
                              top = qRound(std::min(p.y(), lines[i].y()));
                    rects.push_back(QRect(left, top, std::max(1, qRound(p.x() + half) - left),
                                          qRound(std::max(p.y(), lines[i].y())) - top + 1));
                }
            painter->setPen(Qt::NoPen);
            painter->setBrush(pen().color());
            painter->drawRects(rects);
            return;
        }
        // Dashes are cut here, continuing from segment to segment (Qt restarts the pattern on
        // each of separate lines, and short segments would all look solid); dots of a thin pen
        // become points, much cheaper than lines a pixel long.
        QPen solid = painter->pen();
        const double unit = std::max(1.0, solid.widthF());
        const QVector<qreal> pattern =
            solid.style() == Qt::SolidLine ? QVector<qreal>{} : solid.dashPattern();
        solid.setStyle(Qt::SolidLine);
        painter->setPen(solid);
        QVector<QLineF> segments;
        QVector<QPoint> dots;
        segments.reserve(lines.size());
        int dash = 0;
        double left = pattern.isEmpty() ? 0 : pattern[0] * unit; // of the current dash or gap
        for (int i = 1; i < lines.size(); ++i) {
            const QPointF p = lines[i - 1], q = lines[i];
            if (!finite(p) || !finite(q))
                continue;
            if (pattern.isEmpty()) {
                segments.push_back(QLineF(p.toPoint(), q.toPoint()));
                continue;
            }
            const double length = QLineF(p, q).length();
            for (double at = 0; at < length;) {
                const double step = std::min(left, length - at);
                if (dash % 2 == 0) { // dashes at even indices, gaps at odd
                    const QPoint start = (p + (q - p) * (at / length)).toPoint();
                    if (step <= 1 && solid.widthF() <= 1)
                        dots.push_back(start);
                    else
                        segments.push_back(
                            QLineF(start, (p + (q - p) * ((at + step) / length)).toPoint()));
                }
                at += step;
                left -= step;
                if (left <= 0) {
                    dash = (dash + 1) % int(pattern.size());
                    left = pattern[dash] * unit;
                }
            }
        }
        painter->drawLines(segments);
        painter->drawPoints(dots);
    }

    void drawFill(QCPPainter* painter, QVector<QPointF>* lines) const override {
        if (exporting(painter) || channelFillGraph() || brush().style() == Qt::NoBrush) {
            QCPGraph::drawFill(painter, lines);
            return;
        }
        painter->setAntialiasing(false);
        painter->setPen(Qt::NoPen);
        painter->setBrush(brush());
        // Down to the bottom of the (horizontal) key axis' rect: under every horizontal step
        // a rectangle; sloped segments (none in step lines) a quadrilateral.
        const int base = qRound(valueAxis()->coordToPixel(valueAxis()->range().lower));
        QVector<QRect> rects;
        rects.reserve(lines->size() / 2 + 1);
        for (int i = 1; i < lines->size(); ++i) {
            const QPointF p = lines->at(i - 1), q = lines->at(i);
            if (!finite(p) || !finite(q) || p.x() == q.x())
                continue;
            if (p.y() == q.y()) {
                const int left = qRound(std::min(p.x(), q.x()));
                const int top = qRound(p.y());
                rects.push_back(
                    QRect(left, top, qRound(std::max(p.x(), q.x())) - left, base - top));
            } else {
                const QPointF quad[] = {p, q, QPointF(q.x(), base), QPointF(p.x(), base)};
                painter->drawConvexPolygon(quad, 4);
            }
        }
        painter->drawRects(rects);
    }

    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override {
        if (!bars_) {
            QCPGraph::drawLegendIcon(painter, rect);
            return;
        }
        painter->fillRect(rect, pen().color());
    }

private:
    static bool exporting(const QCPPainter* painter) {
        return painter->modes() & (QCPPainter::pmVectorized | QCPPainter::pmNoCaching);
    }
    static bool finite(const QPointF& p) { return std::isfinite(p.x()) && std::isfinite(p.y()); }

    bool bars_ = false;
};

/// Plots per-window `values` (NaN, or past its end: no value, a gap) of windows [first, last):
/// with `bucket` 1 every window at its index; else per bucket of windows at its centre their
/// harmonic mean (windows have equal instruction counts, so that is instructions over cycles:
/// the IPC of the bucket as a whole) and into `range`, when given, their lowest and highest as a
/// vertical bar: points (centre, lowest), (centre, highest), (centre, NaN).
void plotWindows(QCPGraph* graph, std::span<const float> values, std::size_t first,
                 std::size_t last, std::size_t bucket, QCPGraph* range = nullptr) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    QVector<QCPGraphData> line, bars;
    line.reserve(int((last - first) / bucket + 1));
    if (range)
        bars.reserve(3 * line.capacity());
    for (std::size_t b = first; b < last; b += bucket) {
        const std::size_t end = std::min(last, b + bucket);
        const double key = bucket == 1 ? double(b) : 0.5 * double(b + end - 1);
        double cycles = 0, lowest = std::numeric_limits<double>::infinity(), highest = 0;
        int count = 0;
        for (std::size_t w = b; w < std::min(end, values.size()); ++w) {
            if (std::isnan(values[w]))
                continue;
            const double v = floored(values[w]);
            cycles += 1 / v;
            lowest = std::min(lowest, v);
            highest = std::max(highest, v);
            ++count;
        }
        line.push_back({key, count == 0 ? nan : count == 1 ? lowest : count / cycles});
        if (range && count > 0) {
            bars.push_back({key, lowest});
            bars.push_back({key, highest});
            bars.push_back({key, nan});
        }
    }
    graph->data()->set(line, true);
    if (range)
        range->data()->set(bars, true);
}

/// Pixels per bucket where windows are summarised.
constexpr double kBucketPixels = 2;

// Layout of the chart (pixels are at font scale 1 and grow with the theme's fonts).
/// Height of the binding band under the plot, and its gap to the plot.
constexpr int kBandHeight = 34;
constexpr int kBandSpacing = 4;
/// Cells per column of the band: the resolution of its shares (one cell in 24, about 4 %).
constexpr int kBandRows = 24;
/// Region names go on the top axis up to this many regions (beyond, they would be unreadable).
constexpr std::size_t kMaxNamedRegions = 64;
/// Region names' font, relative to the theme's.
constexpr double kRegionNameFont = 0.9;
/// The empty chart's axes: windows and IPC.
constexpr double kEmptyWindows = 250;
constexpr double kEmptyIpc = 4;

// The IPC axis (log scale) spans the lowest bound or simulated IPC (÷ kLowMargin) up to the
// highest the minimum (× kMinimumHeadroom) or the simulation (× kReferenceHeadroom) reaches, at
// least kMinDecades above the lowest and at most kMaxIpc: the resources' much higher bounds
// where they do not bind are cut off.
constexpr double kLowMargin = 1.3;
constexpr double kMinimumHeadroom = 3.0;
constexpr double kReferenceHeadroom = 1.5;
constexpr double kMinDecades = 10.0;
constexpr double kMaxIpc = 64.0 * 1.3;

/// Splits kBandRows cells among resources in proportion to `votes` (windows bound by each, out
/// of `windows`), by largest remainder: each resource gets its share rounded down or up, never
/// more than one cell off.
void shareRows(const std::vector<int>& votes, int windows, std::vector<int>& rows) {
    int given = 0;
    for (std::size_t r = 0; r < votes.size(); ++r) {
        rows[r] = votes[r] * kBandRows / windows;
        given += rows[r];
    }
    // The cells left go to the largest remainders (the lower index on a tie).
    for (; given < kBandRows; ++given) {
        std::size_t best = 0;
        int bestRemainder = -1;
        for (std::size_t r = 0; r < votes.size(); ++r) {
            const int remainder = votes[r] * kBandRows - rows[r] * windows;
            if (votes[r] > 0 && remainder > bestRemainder) {
                best = r;
                bestRemainder = remainder;
            }
        }
        ++rows[best];
    }
}

} // namespace

TimeseriesView::TimeseriesView(QWidget* parent)
    : BoundsChartView(QStringLiteral("timeseries"), parent) {
    setEmptyMessage(tr("No bound timeseries: open a feature database"));
    // The main axis rect outlives rebuilds: one connection for the view's life.
    connect(plot()->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { updatePlotted(); });
}

void TimeseriesView::clear() {
    series_.reset();
    reference_.clear();
    referenceDescription_.clear();
    rebuild();
}

void TimeseriesView::setReference(std::vector<float> ipc, const QString& description) {
    reference_ = std::move(ipc);
    referenceDescription_ = description;
    rebuild();
}

void TimeseriesView::setWindowSize(std::uint32_t instructions) {
    instructions = std::max<std::uint32_t>(1, instructions);
    if (instructions == windowSize_)
        return;
    windowSize_ = instructions;
    rebuild();
}

void TimeseriesView::setSeriesAndReference(std::shared_ptr<const RegionBoundsSeries> series,
                                           std::vector<float> ipc, const QString& description) {
    series_ = std::move(series);
    reference_ = std::move(ipc);
    referenceDescription_ = description;
    rebuild();
}

std::vector<double> TimeseriesView::bandSharesAt(std::size_t window) const {
    if (!band_ || window < plotted_.first || window >= plotted_.last)
        return {};
    const int cell = int((window - plotted_.first) / plotted_.bucket);
    QCPColorMapData* cells = band_->data(); // cell() is not const
    std::vector<double> shares(series_->resourceCount());
    for (int row = 0; row < cells->valueSize(); ++row)
        shares[std::size_t(cells->cell(cell, row))] += 1.0 / cells->valueSize();
    return shares;
}

QColor TimeseriesView::bandColourAt(std::size_t window) const {
    const std::vector<double> shares = bandSharesAt(window);
    if (shares.empty())
        return {};
    const auto largest = std::max_element(shares.begin(), shares.end()) - shares.begin();
    return QColor::fromRgba(band_->gradient().color(double(largest), band_->dataRange()));
}

QString TimeseriesView::columnName(int resource) const {
    if (series_ && series_->resourceCount() == BoundResources::count())
        return QString::fromStdString(BoundResources::blocks()[std::size_t(resource)]);
    return QStringLiteral("resource_%1").arg(resource);
}

std::size_t TimeseriesView::segmentOf(std::size_t w) const {
    const auto& starts = series_->segmentStarts();
    const auto it = std::upper_bound(starts.begin(), starts.end(), w);
    return it == starts.begin() ? 0 : static_cast<std::size_t>(it - starts.begin()) - 1;
}

double TimeseriesView::reference(std::size_t w) const {
    return w < reference_.size() ? double(reference_[w]) : std::numeric_limits<double>::quiet_NaN();
}

void TimeseriesView::afterLayout() {
    updatePlotted();
}

void TimeseriesView::updatePlotted() {
    if (!minimumGraph_ || !hasData())
        return;
    const RegionBoundsSeries& s = *series_;
    const std::size_t n = s.windows();
    const QCPAxis* x = minimumGraph_->keyAxis();
    const QCPRange range = x->range();
    // Before its first layout the plot has no width yet: assume an export's.
    const int width =
        x->axisRect()->width() > 10 ? x->axisRect()->width() : defaultExportSize().width() - 200;
    const double perPixel = range.size() / width;
    // The visible windows and one beyond each edge (lines leave the plot rather than stop short
    // of its edge).
    const auto window = [&](double key) {
        return static_cast<std::size_t>(std::clamp(key, 0.0, double(n)));
    };
    const std::size_t from = window(std::floor(range.lower) - 1);
    const std::size_t to = window(std::ceil(range.upper) + 2);
    // Summaries are drawn in buckets of two pixels: every segment and every pixel row of a bar
    // costs, and a bucket's range still holds each of its windows' dips.
    const std::size_t bucket =
        perPixel <= 1 ? 1 : static_cast<std::size_t>(std::ceil(kBucketPixels * perPixel));
    if (from == plotted_.from && to == plotted_.to && bucket == plotted_.bucket &&
        width == plotted_.width)
        return;
    const bool summary = bucket > 1;
    if (plotted_.bucket == 0 || summary != (plotted_.bucket > 1)) {
        // Every window: step lines (a window's bound holds over its whole width), dash patterns
        // where the palette has them, the area under the minimum shaded. Summaries: lines
        // through the buckets' values, solid (dashes are unreadable over thousands of windows).
        const auto style = summary ? QCPGraph::lsLine : QCPGraph::lsStepCenter;
        for (QCPGraph* graph : graphs_)
            graph->setLineStyle(style);
        minimumGraph_->setLineStyle(style);
        // Opaque: translucent fills are blended pixel by pixel, 15 times slower.
        minimumGraph_->setBrush(summary ? QBrush(Qt::NoBrush)
                                        : QBrush(theme().tint(theme().foreground, 0.1)));
        if (referenceGraph_)
            referenceGraph_->setLineStyle(style);
    }
    // Buckets aligned to multiples of their size: a drag shifts whole buckets instead of
    // regrouping the windows under every pixel.
    const auto aligned = [&](std::size_t size) {
        return Plotted{from, to,   from / size * size, std::min(n, (to + size - 1) / size * size),
                       size, width};
    };
    plotted_ = aligned(bucket);
    const std::size_t first = plotted_.first, last = plotted_.last;
    // Resources, summarised, in buckets twice as wide: twelve noisy lines over each other are
    // unreadable, and each segment costs (12 × 1,100 segments: 3.5 ms).
    const Plotted coarse = aligned(summary ? bucket * 2 : 1);
    for (std::size_t r = 0; r < s.resourceCount(); ++r)
        plotWindows(graphs_[int(r)], s.bound(r), coarse.first, coarse.last, coarse.bucket);
    plotWindows(minimumGraph_, s.minimum(), first, last, bucket, range_);
    // Step lines no wider than about a window: steps of a wide pen over narrow windows merge
    // into a smear. Square caps close the corners between separately drawn segments.
    const double windowPixels = width / range.size();
    const auto stepPen = [&](const QColor& colour, double width, double narrowest,
                             Qt::PenStyle dashes) {
        return QPen(colour, summary ? width : std::clamp(windowPixels, narrowest, width),
                    summary ? Qt::SolidLine : dashes, Qt::SquareCap, Qt::MiterJoin);
    };
    for (int r = 0; r < graphs_.size(); ++r)
        graphs_[r]->setPen(stepPen(theme().palette.colour(r), theme().lineWidth,
                                   theme().lineWidth / 2, theme().palette.lineStyle(r)));
    minimumGraph_->setPen(
        stepPen(theme().foreground, theme().highlightWidth, theme().lineWidth + 1, Qt::SolidLine));
    // A bar per bucket, as wide as it is.
    range_->setPen(QPen(theme().tint(theme().foreground, 0.22),
                        std::max(1.0, double(bucket) * windowPixels), Qt::SolidLine, Qt::FlatCap));
    if (!summary)
        range_->data()->clear();
    if (referenceGraph_)
        plotWindows(referenceGraph_, reference_, first, last, bucket);
    // The band: a column per bucket, stacked from the bottom by the share of its windows each
    // resource binds (bandOrder_: the resource binding most windows overall at the bottom), in
    // kBandRows cells, so the band's colours agree with the binding_resource column of the
    // data in every pixel and over the whole chart (a majority vote per bucket painted a
    // resource binding two windows in three over the whole band). Not one cell per window:
    // QCPColorMap draws the map as an image, 7 ms for a row of 16,000 windows.
    if (!band_)
        return;
    const int cells = int((last - first + bucket - 1) / bucket);
    QCPColorMapData* cellData = band_->data();
    cellData->setSize(cells, kBandRows);
    const double firstKey = double(first) + 0.5 * double(bucket - 1);
    cellData->setRange(QCPRange(firstKey, firstKey + double(std::max(cells - 1, 1) * bucket)),
                       QCPRange(0.5 / kBandRows, 1 - 0.5 / kBandRows));
    const auto binding = s.binding();
    std::vector<int> votes(s.resourceCount()), rows(s.resourceCount());
    for (int k = 0; k < cells; ++k) {
        const std::size_t b = first + std::size_t(k) * bucket, end = std::min(last, b + bucket);
        if (end - b == 1) {
            for (int row = 0; row < kBandRows; ++row)
                cellData->setCell(k, row, double(binding[b]));
            continue;
        }
        std::fill(votes.begin(), votes.end(), 0);
        for (std::size_t w = b; w < end; ++w)
            ++votes[binding[w]];
        shareRows(votes, int(end - b), rows);
        int row = 0;
        for (const std::uint8_t r : bandOrder_)
            for (int n = 0; n < rows[r]; ++n)
                cellData->setCell(k, row++, double(r));
    }
}

void TimeseriesView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    graphs_.clear();
    band_ = nullptr;
    minimumGraph_ = nullptr;
    referenceGraph_ = nullptr;
    range_ = nullptr;
    plotted_ = {};
    bandRect_ = nullptr;
    tracer_ = nullptr;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    y->setLabel(tr("IPC bound (log scale)"));
    if (!hasData()) {
        rangeWindows_ = 0;
        rangeLabel_.clear();
        x->setLabel(tr("Window"));
        x->setRange(0, kEmptyWindows);
        y->setRange(0, kEmptyIpc);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    setUpWindowAxis(x, y);
    addBoundGraphs(x, y);
    addReferenceGraph(x, y);
    fitIpcAxis(y);
    addRegionBoundaries(x, y);
    addRegionNames(rect);
    addBindingBand(rect);
    setNotes();
    plotted_ = {}; // all graphs and the band exist now: plot them
    updatePlotted();
    tracer_ = addHoverTracer(x, y);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void TimeseriesView::setUpWindowAxis(QCPAxis* x, QCPAxis* y) {
    // Log IPC axis, windows on x (tick labels on the band below).
    const std::size_t n = series_->windows();
    y->setScaleType(QCPAxis::stLogarithmic);
    x->setTickLabels(false);
    // A new series of the same program or region (a slider step) keeps the user's zoom.
    if (n != rangeWindows_ || series_->label() != rangeLabel_)
        x->setRange(-0.5, double(n) - 0.5);
    rangeWindows_ = n;
    rangeLabel_ = series_->label();
}

void TimeseriesView::addBoundGraphs(QCPAxis* x, QCPAxis* y) {
    // Their pens, line styles and data follow the level of detail (updatePlotted).
    for (std::size_t r = 0; r < series_->resourceCount(); ++r) {
        QCPGraph* graph = new WindowGraph(x, y);
        graph->setName(resourceName(int(r)));
        graphs_.push_back(graph);
    }
    minimumGraph_ = new WindowGraph(x, y);
    minimumGraph_->setName(tr("Minimum (binding bound)"));
    minimumGraph_->setLayer(QStringLiteral("highlight"));
    QFont bold = theme().font(1.0);
    bold.setBold(true);
    if (auto* item = plot()->legend->itemWithPlottable(minimumGraph_))
        item->setFont(bold);
    // The minimum's range within each pixel, as bars under the resources: where the plot
    // summarises windows, the dips that bind are their lower ends. Resources get no ranges:
    // twelve overlapping ones would fill the plot; a resource's dips matter where it binds, and
    // there they are the minimum's.
    auto* range = new WindowGraph(x, y);
    range->setBars(true);
    range_ = range;
    // Named in the legend, not explained in the caption: exports do not always wrap it.
    range_->setName(tr("Minimum: range per %1 px").arg(kBucketPixels));
    range_->setLineStyle(QCPGraph::lsLine);
    range_->setAdaptiveSampling(false);       // three points per bar are what it draws
    range_->setLayer(QStringLiteral("grid")); // under the resources, over the grid
}

void TimeseriesView::addReferenceGraph(QCPAxis* x, QCPAxis* y) {
    if (std::none_of(reference_.begin(), reference_.end(), [](float v) { return !std::isnan(v); }))
        return;
    referenceGraph_ = new WindowGraph(x, y);
    // The legend stays short; which simulation it is goes in the caption (setNotes).
    referenceGraph_->setName(tr("Simulated IPC"));
    referenceGraph_->setLayer(QStringLiteral("highlight"));
    // Dashed even when summarised: solid grey would pass for a resource.
    referenceGraph_->setPen(
        QPen(theme().reference, theme().lineWidth, Qt::DashLine, Qt::FlatCap, Qt::MiterJoin));
}

void TimeseriesView::fitIpcAxis(QCPAxis* y) {
    double low = std::numeric_limits<double>::infinity(), highMinimum = 0, highReference = 0;
    for (const float v : series_->minimum()) {
        low = std::min(low, floored(v));
        highMinimum = std::max(highMinimum, floored(v));
    }
    if (referenceGraph_)
        for (std::size_t w = 0; w < std::min(series_->windows(), reference_.size()); ++w)
            if (!std::isnan(reference_[w])) {
                low = std::min(low, floored(reference_[w]));
                highReference = std::max(highReference, floored(reference_[w]));
            }
    const double upper =
        std::min(kMaxIpc, std::max({highMinimum * kMinimumHeadroom,
                                    highReference * kReferenceHeadroom, low * kMinDecades}));
    y->setRange(low / kLowMargin, upper);
    y->setTicker(logTicker(y, y->range().lower, y->range().upper));
}

void TimeseriesView::addRegionBoundaries(QCPAxis* x, QCPAxis* y) {
    // Dotted vertical lines across the plot, one graph drawn in one batch (63 straight-line
    // items took 1 ms a replot).
    const auto& starts = series_->segmentStarts();
    if (starts.size() <= 1)
        return;
    auto* boundaries = new WindowGraph(x, y);
    boundaries->setObjectName(QStringLiteral("region_boundaries"));
    boundaries->removeFromLegend();
    boundaries->setAdaptiveSampling(false);
    boundaries->setLayer(QStringLiteral("highlight")); // over the shade under the minimum
    boundaries->setPen(QPen(theme().foreground, 1, Qt::DotLine, Qt::FlatCap));
    QVector<QCPGraphData> ends;
    for (std::size_t k = 1; k < starts.size(); ++k) {
        const double key = double(starts[k]) - 0.5;
        ends << QCPGraphData(key, y->range().lower / 2) << QCPGraphData(key, y->range().upper * 2)
             << QCPGraphData(key, std::numeric_limits<double>::quiet_NaN());
    }
    boundaries->data()->set(ends, true);
}

void TimeseriesView::addRegionNames(QCPAxisRect* rect) {
    // On the top axis, centred on their windows: "r3" for region 3 of the program shown.
    const auto& starts = series_->segmentStarts();
    if (starts.size() <= 1 || starts.size() > kMaxNamedRegions)
        return;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* top = rect->axis(QCPAxis::atTop);
    top->setVisible(true);
    top->setTicks(true);
    top->setTickLabels(true);
    top->setTickLength(0, 0);
    top->setSubTicks(false);
    top->grid()->setVisible(false);
    top->setBasePen(Qt::NoPen);
    QStringList names;
    QVector<double> centres;
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const std::size_t end = k + 1 < starts.size() ? starts[k + 1] : series_->windows();
        QString name = QString::fromStdString(series_->segmentLabels()[k]);
        const int space = int(name.lastIndexOf(QLatin1Char(' ')));
        if (space >= 0 && name.startsWith(QString::fromStdString(series_->label())))
            name = QStringLiteral("r") + name.mid(space + 1);
        names.push_back(name);
        centres.push_back(0.5 * double(starts[k] + end) - 0.5);
    }
    top->setTicker(sequenceTicker(top, names, centres));
    top->setRange(x->range());
    top->setTickLabelFont(theme().font(kRegionNameFont));
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), top,
            qOverload<const QCPRange&>(&QCPAxis::setRange), Qt::UniqueConnection);
}

void TimeseriesView::addBindingBand(QCPAxisRect* rect) {
    // Under the plot, sharing its window axis: the binding resource per plotted window or bucket.
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    bandRect_ = new QCPAxisRect(plot());
    body()->addElement(1, 0, bandRect_);
    styleAxisRect(bandRect_);
    const int bandHeight = int(kBandHeight * theme().fontScale);
    bandRect_->setMinimumSize(0, bandHeight);
    bandRect_->setMaximumSize(QWIDGETSIZE_MAX, bandHeight);
    body()->setRowStretchFactor(1, 0.001);
    body()->setRowSpacing(int(kBandSpacing * theme().fontScale));
    auto* group = new QCPMarginGroup(plot());
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    bandRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    QCPAxis* bx = bandRect_->axis(QCPAxis::atBottom);
    QCPAxis* by = bandRect_->axis(QCPAxis::atLeft);
    by->setRange(0, 1);
    by->setTicks(false);
    by->setTickLabels(false);
    by->setLabel(tr("binds"));
    by->grid()->setVisible(false);
    bx->grid()->setVisible(false);
    bx->setRange(x->range());
    bx->setLabel(tr("Window (%1 instructions each)").arg(windowSize_));
    bandRect_->setRangeDrag(Qt::Horizontal);
    bandRect_->setRangeZoom(Qt::Horizontal);
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), bx,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(bx, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), x,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    // The band is an image, a column per plotted window or bucket (see updatePlotted) coloured
    // by its binding resource.
    band_ = new QCPColorMap(bx, by);
    band_->setObjectName(QStringLiteral("binding_band"));
    band_->removeFromLegend();
    band_->setInterpolate(false);
    band_->setAntialiased(false); // no smoothing between windows, and a much cheaper scale
    const int resources = int(series_->resourceCount());
    QCPColorGradient colours;
    colours.clearColorStops();
    colours.setLevelCount(std::max(resources, 2));
    for (int r = 0; r < resources; ++r)
        colours.setColorStopAt(resources > 1 ? double(r) / (resources - 1) : 0.0,
                               theme().palette.colour(r));
    band_->setGradient(colours);
    band_->setDataRange(QCPRange(0, std::max(resources - 1, 1)));
    // Stacked from the bottom: the resource binding most windows first.
    std::vector<std::size_t> windows(std::size_t(resources), 0);
    for (const std::uint8_t r : series_->binding())
        ++windows[r];
    bandOrder_.resize(std::size_t(resources));
    std::iota(bandOrder_.begin(), bandOrder_.end(), std::uint8_t(0));
    std::stable_sort(bandOrder_.begin(), bandOrder_.end(),
                     [&](std::uint8_t a, std::uint8_t b) { return windows[a] > windows[b]; });
}

void TimeseriesView::setNotes() {
    // What the legend and axes do not say, in the caption, which wraps to the chart's width.
    QStringList notes;
    notes.push_back(tr("The band stacks the share of windows each resource binds, per pixel."));
    if (series_->segmentStarts().size() > 1)
        notes.push_back(tr("Dotted lines separate regions."));
    if (referenceGraph_ && !referenceDescription_.isEmpty())
        notes.push_back(tr("Simulated IPC: %1.").arg(referenceDescription_));
    setCaption(notes.join(QLatin1Char(' ')));
}

QString TimeseriesView::hoverTextAt(const QPointF& pos) {
    if (!hasData() || !minimumGraph_)
        return {};
    QCPAxis* x = minimumGraph_->keyAxis();
    QCPAxis* y = minimumGraph_->valueAxis();
    const bool inMain = x->axisRect()->rect().contains(pos.toPoint());
    const bool inBand = bandRect_ && bandRect_->rect().contains(pos.toPoint());
    if (!inMain && !inBand) {
        tracer_->setVisible(false);
        return {};
    }
    const double key = std::round(x->pixelToCoord(pos.x()));
    const RegionBoundsSeries& s = *series_;
    if (key < 0 || key >= double(s.windows())) {
        tracer_->setVisible(false);
        return {};
    }
    const auto w = static_cast<std::size_t>(key);
    const std::size_t segment = segmentOf(w);
    const std::size_t local = w - s.segmentStarts()[segment];
    const std::uint64_t first = std::uint64_t(local) * windowSize_;
    const int binding = s.binding()[w];
    tracer_->position->setCoords(key, std::max<double>(s.minimum()[w], 1e-3));
    tracer_->setVisible(true);

    QString text = tr("window %1").arg(w);
    const QString segmentLabel = QString::fromStdString(s.segmentLabels()[segment]);
    if (!segmentLabel.isEmpty())
        text += QStringLiteral(" \u00b7 ") + segmentLabel;
    text +=
        tr(" (instructions %1\u2013%2)")
            .arg(ChartFormat::instructions(first), ChartFormat::instructions(first + windowSize_));
    text += QLatin1Char('\n') +
            tr("binding: %1 %2 IPC").arg(resourceName(binding), ChartFormat::ipc(s.minimum()[w]));
    const double simulated = reference(w);
    if (!std::isnan(simulated))
        text += QLatin1Char('\n') + tr("simulated: %1 IPC").arg(ChartFormat::ipc(simulated));
    // The next-tightest resources.
    std::vector<std::size_t> order(s.resourceCount());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return s.bound(a)[w] < s.bound(b)[w]; });
    QStringList next;
    for (std::size_t k = 0; k < order.size() && next.size() < 3; ++k)
        if (order[k] != std::size_t(binding))
            next.push_back(QStringLiteral("%1 %2").arg(resourceName(int(order[k])),
                                                       ChartFormat::ipc(s.bound(order[k])[w])));
    if (!next.isEmpty())
        text += QLatin1Char('\n') + tr("next: %1").arg(next.join(QStringLiteral(", ")));
    Q_UNUSED(y);
    return text;
}

ChartTable TimeseriesView::dataTable() const {
    ChartTable table;
    table.header = {QStringLiteral("window"), QStringLiteral("segment"),
                    QStringLiteral("first_instruction")};
    const std::size_t resources = series_ ? series_->resourceCount() : BoundResources::count();
    for (std::size_t r = 0; r < resources; ++r)
        table.header.push_back(series_ ? columnName(int(r))
                                       : QString::fromStdString(BoundResources::blocks()[r]));
    table.header << QStringLiteral("minimum") << QStringLiteral("binding_resource")
                 << QStringLiteral("simulated_ipc");
    if (!hasData())
        return table;
    const RegionBoundsSeries& s = *series_;
    for (std::size_t w = 0; w < s.windows(); ++w) {
        const std::size_t segment = segmentOf(w);
        const std::size_t local = w - s.segmentStarts()[segment];
        QStringList row = {QString::number(w), QString::fromStdString(s.segmentLabels()[segment]),
                           QString::number(std::uint64_t(local) * windowSize_)};
        for (std::size_t r = 0; r < s.resourceCount(); ++r)
            row.push_back(ChartTable::number(s.bound(r)[w]));
        row << ChartTable::number(s.minimum()[w]) << columnName(s.binding()[w])
            << ChartTable::number(reference(w));
        table.rows.push_back(row);
    }
    return table;
}

} // namespace concorde::ui
