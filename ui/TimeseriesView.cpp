#include "TimeseriesView.h"

#include "ChartFormat.h"
#include "explore/BoundResources.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <qcustomplot.h>

namespace concorde::ui {

TimeseriesView::TimeseriesView(QWidget* parent)
    : BoundsChartView(QStringLiteral("timeseries"), parent) {
    setEmptyMessage(tr("No bound timeseries: open a feature database"));
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

QColor TimeseriesView::bandColourAt(std::size_t window) const {
    if (!band_ || window >= std::size_t(band_->data()->keySize()))
        return {};
    const QCPRange levels = band_->dataRange();
    return QColor::fromRgba(band_->gradient().color(band_->data()->cell(int(window), 0), levels));
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

void TimeseriesView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    graphs_.clear();
    band_ = nullptr;
    minimumGraph_ = nullptr;
    referenceGraph_ = nullptr;
    bandRect_ = nullptr;
    tracer_ = nullptr;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    y->setLabel(tr("IPC bound (log scale)"));
    if (!hasData()) {
        x->setLabel(tr("Window"));
        x->setRange(0, 250);
        y->setRange(0, 4);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const RegionBoundsSeries& s = *series_;
    const std::size_t n = s.windows();

    // Main plot: log IPC axis, windows on x (tick labels on the band below).
    y->setScaleType(QCPAxis::stLogarithmic);
    x->setTickLabels(false);
    x->setRange(-0.5, double(n) - 0.5);

    const auto floorOf = [](double v) { return std::max(v, 1e-3); };
    // Qt's raster engine strokes a wide pen by outlining and filling the whole polyline: about
    // 3 ms per series for one region's 250 windows and half a second over a program's
    // thousands (chart_render). So every series here is drawn with a one-pixel hairline; over
    // thousands of windows dash patterns are unreadable anyway: solid, aliased lines there.
    const bool dense = n > 1500;
    const auto hairline = [&](const QColor& colour, Qt::PenStyle style) {
        QPen p(colour, 0, dense ? Qt::SolidLine : style);
        p.setCosmetic(true);
        return p;
    };
    // What a graph plots of a per-window series: every window, or over more windows than the
    // plot has pixels, each bucket's maximum then its minimum (the envelope a step line of
    // every window would draw, at a tenth of the points). NaN windows are skipped.
    const std::size_t bucket = dense ? (n + 1499) / 1500 : 1;
    const auto setPlotted = [&](QCPGraph* graph, const auto& valueAt) {
        QVector<double> keys, values;
        keys.reserve(int(2 * n / bucket + 2));
        values.reserve(keys.capacity());
        for (std::size_t first = 0; first < n; first += bucket) {
            const std::size_t last = std::min(n, first + bucket);
            double high = -1, lowest = std::numeric_limits<double>::infinity();
            for (std::size_t w = first; w < last; ++w) {
                const double v = valueAt(w);
                if (std::isnan(v))
                    continue;
                high = std::max(high, v);
                lowest = std::min(lowest, v);
            }
            if (high < 0) {
                keys.push_back(double(first)); // a gap in the line
                values.push_back(std::numeric_limits<double>::quiet_NaN());
                continue;
            }
            keys.push_back(double(first));
            values.push_back(floorOf(high));
            if (bucket > 1) {
                keys.push_back(0.5 * double(first + last - 1));
                values.push_back(floorOf(lowest));
            }
        }
        graph->setData(keys, values, true);
    };
    for (std::size_t r = 0; r < s.resourceCount(); ++r) {
        const int i = static_cast<int>(r);
        QCPGraph* graph = plot()->addGraph(x, y);
        graph->setName(resourceName(i));
        QColor colour = theme().palette.colour(i);
        colour.setAlpha(200);
        graph->setPen(hairline(colour, theme().palette.lineStyle(i)));
        graph->setLineStyle(QCPGraph::lsStepCenter);
        graph->setAntialiased(!dense);
        const auto bound = s.bound(r);
        setPlotted(graph, [&](std::size_t w) { return double(bound[w]); });
        graphs_.push_back(graph);
    }
    minimumGraph_ = plot()->addGraph(x, y);
    minimumGraph_->setName(tr("Minimum (binding bound)"));
    // The minimum stands out by its colour and the shaded area under it (what the binding
    // resources leave achievable), not by a wide pen.
    minimumGraph_->setPen(hairline(theme().foreground, Qt::SolidLine));
    QColor shade = theme().foreground;
    shade.setAlpha(45);
    if (!dense && !qEnvironmentVariableIsSet("NOFILL"))
        minimumGraph_->setBrush(shade);
    minimumGraph_->setAntialiasedFill(false);
    minimumGraph_->setLineStyle(QCPGraph::lsStepCenter);
    minimumGraph_->setAntialiased(!dense);
    double low = std::numeric_limits<double>::infinity(), highMinimum = 0, highReference = 0;
    for (std::size_t w = 0; w < n; ++w) {
        low = std::min(low, floorOf(s.minimum()[w]));
        highMinimum = std::max(highMinimum, floorOf(s.minimum()[w]));
    }
    setPlotted(minimumGraph_, [&](std::size_t w) { return double(s.minimum()[w]); });
    minimumGraph_->setLayer(QStringLiteral("highlight"));
    QFont bold = theme().font(1.0);
    bold.setBold(true);
    if (auto* item = plot()->legend->itemWithPlottable(minimumGraph_))
        item->setFont(bold);

    const bool anyReference =
        std::any_of(reference_.begin(), reference_.end(), [](float v) { return !std::isnan(v); });
    if (anyReference) {
        referenceGraph_ = plot()->addGraph(x, y);
        // The legend stays short; which simulation it is goes under the axis (see below).
        referenceGraph_->setName(tr("Simulated IPC"));
        referenceGraph_->setPen(hairline(theme().reference, Qt::DashLine));
        referenceGraph_->setLineStyle(QCPGraph::lsStepCenter);
        referenceGraph_->setAntialiased(!dense);
        for (std::size_t w = 0; w < n; ++w)
            if (const double v = reference(w); !std::isnan(v)) {
                low = std::min(low, floorOf(v));
                highReference = std::max(highReference, floorOf(v));
            }
        setPlotted(referenceGraph_, [&](std::size_t w) { return reference(w); });
        referenceGraph_->setLayer(QStringLiteral("highlight"));
    }
    const double upper =
        std::min(64.0 * 1.3, std::max({highMinimum * 3.0, highReference * 1.5, low * 10.0}));
    y->setRange(low / 1.3, upper);
    y->setTicker(logTicker(y, y->range().lower, y->range().upper));

    // Region boundaries.
    const auto& starts = s.segmentStarts();
    for (std::size_t k = 1; k < starts.size(); ++k) {
        auto* line = new QCPItemStraightLine(plot());
        line->point1->setAxes(x, y);
        line->point2->setAxes(x, y);
        line->point1->setCoords(double(starts[k]) - 0.5, 1);
        line->point2->setCoords(double(starts[k]) - 0.5, 2);
        line->setPen(QPen(theme().foreground, 1, Qt::DotLine));
    }

    // Region names on the top axis, centred on their windows.
    if (starts.size() > 1 && starts.size() <= 64) {
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
            const std::size_t end = k + 1 < starts.size() ? starts[k + 1] : n;
            QString name = QString::fromStdString(s.segmentLabels()[k]);
            const int space = int(name.lastIndexOf(QLatin1Char(' ')));
            if (space >= 0 && name.startsWith(QString::fromStdString(s.label())))
                name = QStringLiteral("r") + name.mid(space + 1);
            names.push_back(name);
            centres.push_back(0.5 * double(starts[k] + end) - 0.5);
        }
        top->setTicker(sequenceTicker(top, names, centres));
        top->setRange(x->range());
        top->setTickLabelFont(theme().font(0.9));
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), top,
                qOverload<const QCPRange&>(&QCPAxis::setRange));
    }

    // The band: one bar per window, coloured by the binding resource.
    bandRect_ = new QCPAxisRect(plot());
    body()->addElement(1, 0, bandRect_);
    styleAxisRect(bandRect_);
    const int bandHeight = int(34 * theme().fontScale);
    bandRect_->setMinimumSize(0, bandHeight);
    bandRect_->setMaximumSize(QWIDGETSIZE_MAX, bandHeight);
    body()->setRowStretchFactor(1, 0.001);
    body()->setRowSpacing(int(4 * theme().fontScale));
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
    // The rest of the explanation goes in the caption, which wraps to the chart's width.
    QStringList notes;
    if (starts.size() > 1)
        notes.push_back(tr("Dotted lines separate regions."));
    if (referenceGraph_ && !referenceDescription_.isEmpty())
        notes.push_back(tr("Simulated IPC: %1.").arg(referenceDescription_));
    setCaption(notes.join(QLatin1Char(' ')));
    bandRect_->setRangeDrag(Qt::Horizontal);
    bandRect_->setRangeZoom(Qt::Horizontal);
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), bx,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(bx, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), x,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    // The band is an image, one pixel column per window coloured by its binding resource:
    // drawn at the cost of one scaled image however many windows there are.
    band_ = new QCPColorMap(bx, by);
    band_->setObjectName(QStringLiteral("binding_band"));
    band_->removeFromLegend();
    band_->setInterpolate(false);
    band_->setAntialiased(false); // no smoothing between windows, and a much cheaper scale
    band_->setTightBoundary(true);
    band_->data()->setSize(int(n), 1);
    band_->data()->setRange(QCPRange(0, double(n) - 1), QCPRange(0, 1));
    for (std::size_t w = 0; w < n; ++w)
        band_->data()->setCell(int(w), 0, double(s.binding()[w]));
    const int resources = int(s.resourceCount());
    QCPColorGradient colours;
    colours.clearColorStops();
    colours.setLevelCount(std::max(resources, 2));
    for (int r = 0; r < resources; ++r)
        colours.setColorStopAt(resources > 1 ? double(r) / (resources - 1) : 0.0,
                               theme().palette.colour(r));
    band_->setGradient(colours);
    band_->setDataRange(QCPRange(0, std::max(resources - 1, 1)));

    tracer_ = addHoverTracer(x, y);
    plot()->replot(QCustomPlot::rpQueuedReplot);
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
