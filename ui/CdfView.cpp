#include "CdfView.h"

#include "ChartFormat.h"
#include "explore/BoundResources.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace concorde::ui {
namespace {

/// Bounds are capped at 64 IPC (FeatureLayout::kThroughputCap): a resource whose every window
/// sits there never limits.
constexpr float kCapValue = 63.99f;

} // namespace

CdfView::CdfView(QWidget* parent) : BoundsChartView(QStringLiteral("cdf"), parent) {
    setEmptyMessage(tr("No throughput distributions: open a feature database"));
}

void CdfView::setShowMinimum(bool show) {
    showMinimum_ = show;
    rebuild();
}

int CdfView::highlightedResource() const {
    return hasData() ? static_cast<int>(series_->dominantResource()) : -1;
}

QString CdfView::legendName(int resource) const {
    const RegionBoundsSeries& s = *series_;
    const auto r = static_cast<std::size_t>(resource);
    const auto& values = s.cdf(r).sortedValues();
    if (!values.empty() && values.front() >= kCapValue)
        return tr("%1 (never limits)").arg(resourceName(resource));
    if (s.bindingCount(r) == 0)
        return resourceName(resource);
    return tr("%1 (binds %2)").arg(resourceName(resource), ChartFormat::percent(s.bindingShare(r)));
}

void CdfView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    graphs_.clear();
    minimumGraph_ = nullptr;
    highlightLabel_ = nullptr;
    tracer_ = nullptr;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    x->setLabel(tr("IPC bound (instructions per cycle, log scale)"));
    y->setLabel(tr("Fraction of windows with bound \u2264 x"));
    y->setRange(0, 1.02);
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    if (!hasData()) {
        x->setRange(0.1, 100);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const RegionBoundsSeries& s = *series_;

    // x range: the positive samples, with some room; zero bounds sit at the left edge.
    float low = std::numeric_limits<float>::infinity(), high = 0;
    for (std::size_t r = 0; r < s.resourceCount(); ++r)
        for (const float v : s.cdf(r).sortedValues()) {
            if (v > 0)
                low = std::min(low, v);
            high = std::max(high, v);
        }
    if (!std::isfinite(low))
        low = 0.1f;
    floor_ = std::max(1e-3, double(low) / 1.4);
    x->setScaleType(QCPAxis::stLogarithmic);
    x->setRange(floor_, std::max(double(high) * 1.4, floor_ * 10));
    x->setTicker(logTicker(x, x->range().lower, x->range().upper));
    auto yTicker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    yTicker->setTickStep(0.2);
    y->setTicker(yTicker);

    // The minimum first, as a wide translucent band under the curves: where the binding
    // resource's curve runs inside it, that resource sets the min-of-bounds IPC.
    if (showMinimum_) {
        minimumGraph_ = plot()->addGraph(x, y);
        minimumGraph_->setName(tr("Minimum of bounds"));
        QPen haloPen = pen(theme().tint(theme().reference, 110.0 / 255),
                           2.4 * theme().highlightWidth / theme().lineWidth);
        haloPen.setCapStyle(Qt::SquareCap); // closes the corners between segments
        minimumGraph_->setPen(haloPen);
        QVector<double> keys, values;
        for (const CdfPoint& p : s.minimumCdf().staircase()) {
            keys.push_back(std::max(p.x, floor_));
            values.push_back(p.p);
        }
        minimumGraph_->setData(keys, values, true);
    }
    const int dominant = static_cast<int>(s.dominantResource());
    QFont bold = theme().font(1.0);
    bold.setBold(true);
    for (std::size_t r = 0; r < s.resourceCount(); ++r) {
        const int i = static_cast<int>(r);
        QCPGraph* graph = plot()->addGraph(x, y);
        graph->setName(legendName(i));
        const bool highlighted = i == dominant;
        QPen curvePen = pen(theme().palette.colour(i),
                            highlighted ? theme().highlightWidth / theme().lineWidth : 1.0,
                            theme().palette.lineStyle(i));
        if (curvePen.style() == Qt::SolidLine)
            curvePen.setCapStyle(Qt::SquareCap); // closes the staircase's corners
        graph->setPen(curvePen);
        graph->setLineStyle(QCPGraph::lsLine);
        QVector<double> keys, values;
        for (const CdfPoint& p : s.cdf(r).staircase()) {
            keys.push_back(std::max(p.x, floor_));
            values.push_back(p.p);
        }
        graph->setData(keys, values, true);
        if (highlighted) {
            graph->setLayer(QStringLiteral("highlight"));
            if (auto* item = plot()->legend->itemWithPlottable(graph))
                item->setFont(bold);
        }
        graphs_.push_back(graph);
    }
    // The label of the binding resource, at its median, on the side with more room.
    const Cdf& cdf = s.cdf(static_cast<std::size_t>(dominant));
    const double median = std::max<double>(cdf.quantile(0.5), floor_);
    highlightLabel_ = new QCPItemText(plot());
    highlightLabel_->setObjectName(QStringLiteral("highlight_label"));
    highlightLabel_->position->setAxes(x, y);
    highlightLabel_->position->setCoords(median, 0.5);
    const bool leftHalf = std::log(median / x->range().lower) < std::log(x->range().upper / median);
    highlightLabel_->setPositionAlignment((leftHalf ? Qt::AlignLeft : Qt::AlignRight) |
                                          Qt::AlignVCenter);
    highlightLabel_->setClipToAxisRect(false);
    highlightLabel_->setPadding(QMargins(6, 3, 6, 3));
    highlightLabel_->setText(tr("%1 binds %2 of windows")
                                 .arg(resourceName(dominant),
                                      ChartFormat::percent(s.bindingShare(std::size_t(dominant)))));
    highlightLabel_->setFont(bold);
    highlightLabel_->setColor(theme().foreground);
    QColor back = theme().background;
    back.setAlpha(220);
    highlightLabel_->setBrush(back);
    highlightLabel_->setPen(pen(theme().palette.colour(dominant), 0.8));
    highlightLabel_->setLayer(QStringLiteral("highlight"));

    tracer_ = addHoverTracer(x, y);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void CdfView::afterLayout() {
    // Keep the binding label inside the plot: on the side of its anchor with room for it.
    if (!highlightLabel_)
        return;
    const QCPAxisRect* rect = highlightLabel_->position->keyAxis()->axisRect();
    const double anchor = highlightLabel_->position->pixelPosition().x();
    const QMargins padding = highlightLabel_->padding();
    const double width =
        QFontMetricsF(highlightLabel_->font()).horizontalAdvance(highlightLabel_->text()) +
        padding.left() + padding.right() + 4;
    const double roomRight = rect->right() - anchor, roomLeft = anchor - rect->left();
    const Qt::Alignment side = width <= roomRight || (width > roomLeft && roomRight >= roomLeft)
                                   ? Qt::AlignLeft
                                   : Qt::AlignRight;
    highlightLabel_->setPositionAlignment(side | Qt::AlignVCenter);
}

QString CdfView::hoverTextAt(const QPointF& pos) {
    if (!hasData() || graphs_.isEmpty())
        return {};
    QCPAxisRect* rect = graphs_.front()->keyAxis()->axisRect();
    if (!rect->rect().contains(pos.toPoint())) {
        tracer_->setVisible(false);
        return {};
    }
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const double atX = x->pixelToCoord(pos.x());
    const RegionBoundsSeries& s = *series_;

    // The curve nearest the pointer vertically, at the pointer's x; snapped to the largest sample
    // at or left of x (the step the pointer is on).
    int best = -2; // -1: the minimum
    double bestDistance = std::numeric_limits<double>::infinity();
    double bestValue = 0, bestFraction = 0;
    const auto consider = [&](int index, const Cdf& cdf) {
        const auto& values = cdf.sortedValues();
        if (values.empty())
            return;
        auto it = std::upper_bound(values.begin(), values.end(), float(atX));
        const double value = it == values.begin() ? values.front() : *(it - 1);
        const double fraction = cdf.evaluate(value);
        const double shown = it == values.begin() ? 0.0 : fraction;
        const double distance = std::abs(y->coordToPixel(shown) - pos.y());
        if (distance < bestDistance) {
            best = index;
            bestDistance = distance;
            bestValue = value;
            bestFraction = fraction;
        }
    };
    for (std::size_t r = 0; r < s.resourceCount(); ++r)
        consider(static_cast<int>(r), s.cdf(r));
    if (minimumGraph_)
        consider(-1, s.minimumCdf());
    if (best == -2 || bestDistance > 60 * theme().fontScale) {
        tracer_->setVisible(false);
        return {};
    }
    tracer_->position->setCoords(std::max(bestValue, floor_), bestFraction);
    tracer_->setVisible(true);
    const QString name = best < 0 ? tr("Minimum of bounds") : resourceName(best);
    QString text = tr("%1: bound \u2264 %2 IPC in %3 of windows")
                       .arg(name, ChartFormat::ipc(bestValue), ChartFormat::percent(bestFraction));
    if (best >= 0) {
        const auto r = static_cast<std::size_t>(best);
        text += QLatin1Char('\n') + tr("median %1 IPC \u00b7 binds %2 of windows")
                                        .arg(ChartFormat::ipc(s.cdf(r).quantile(0.5)),
                                             ChartFormat::percent(s.bindingShare(r)));
    } else {
        text += QLatin1Char('\n') +
                tr("min-of-bounds CPI %1").arg(ChartFormat::cpi(s.minimumBoundCpi()));
    }
    return text;
}

ChartTable CdfView::dataTable() const {
    ChartTable table;
    table.header = {QStringLiteral("resource"), QStringLiteral("ipc_bound"),
                    QStringLiteral("cumulative_fraction"), QStringLiteral("binding_share")};
    if (!hasData())
        return table;
    const RegionBoundsSeries& s = *series_;
    for (std::size_t r = 0; r < s.resourceCount(); ++r)
        for (const CdfPoint& p : s.cdf(r).steps())
            table.rows.push_back({resourceName(static_cast<int>(r)), ChartTable::number(p.x),
                                  ChartTable::number(p.p), ChartTable::number(s.bindingShare(r))});
    for (const CdfPoint& p : s.minimumCdf().steps())
        table.rows.push_back({QStringLiteral("minimum"), ChartTable::number(p.x),
                              ChartTable::number(p.p), QString()});
    return table;
}

} // namespace concorde::ui
