#include "SweepView.h"

#include "ChartFormat.h"
#include "params/ParameterSpace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace concorde::ui {
SweepView::SweepView(QWidget* parent) : ChartView(QStringLiteral("sweep"), parent) {
    setTitle(tr("Sweep"));
    setEmptyMessage(tr("No prediction yet: open a feature database"));
}

void SweepView::setSweep(ParameterSweep sweep, std::optional<std::size_t> selected) {
    sweep_ = std::move(sweep);
    selected_ = selected && *selected < sweep_.programs.size() ? selected : std::nullopt;
    setTitle(sweepTitle());
    rebuild();
}

QString SweepView::sweepTitle() const {
    const ParameterSpec& spec = ParameterSpace::spec(sweep_.parameter);
    return tr("Predicted CPI across %1%2, other parameters %3")
        .arg(QString::fromStdString(spec.label),
             spec.unit.empty() ? QString()
                               : QStringLiteral(" (%1)").arg(QString::fromStdString(spec.unit)),
             exporting() ? tr("as in the target") : tr("at the sliders"));
}

void SweepView::renderModeChanged() {
    if (!hasData())
        return;
    setTitle(sweepTitle());
    rebuild();
}

void SweepView::clear() {
    sweep_ = {};
    selected_.reset();
    setTitle(tr("Sweep"));
    rebuild();
}

void SweepView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    plot()->setInteractions({});
    selectedGraph_ = nullptr;
    meanGraph_ = nullptr;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const int n = static_cast<int>(sweep_.values.size());
    if (n == 0) {
        x->setRange(0, 1);
        y->setRange(0, 1);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    QVector<double> keys;
    QStringList labels;
    for (int v = 0; v < n; ++v) {
        keys << v;
        labels << ChartFormat::parameterValue(sweep_.parameter,
                                              sweep_.values[static_cast<std::size_t>(v)]);
    }
    const auto curve = [&](std::size_t program) {
        QVector<double> values;
        for (int v = 0; v < n; ++v)
            values << sweep_.cpi[static_cast<std::size_t>(v)][program];
        return values;
    };
    double low = std::numeric_limits<double>::max();
    double high = 0;
    for (const auto& row : sweep_.cpi)
        for (const double cpi : row) {
            low = std::min(low, cpi);
            high = std::max(high, cpi);
        }
    // The selected program's band, if the model has one, under every curve.
    const bool banded = selected_ && sweep_.bandProgram == sweep_.programs[*selected_] &&
                        sweep_.bandLow.size() == static_cast<std::size_t>(n) &&
                        sweep_.bandHigh.size() == static_cast<std::size_t>(n);
    if (banded) {
        auto* lower = plot()->addGraph(x, y);
        lower->setData(keys, QVector<double>(sweep_.bandLow.begin(), sweep_.bandLow.end()), true);
        lower->setPen(Qt::NoPen);
        lower->removeFromLegend();
        auto* upper = plot()->addGraph(x, y);
        upper->setObjectName(QStringLiteral("sweep_band"));
        upper->setData(keys, QVector<double>(sweep_.bandHigh.begin(), sweep_.bandHigh.end()), true);
        upper->setPen(Qt::NoPen);
        upper->setBrush(theme().tint(theme().target, 0.25));
        upper->setChannelFillGraph(lower);
        upper->setName(tr("band of %1").arg(QString::fromStdString(sweep_.bandProgram)));
        for (std::size_t v = 0; v < sweep_.bandLow.size(); ++v) {
            low = std::min(low, sweep_.bandLow[v]);
            high = std::max(high, sweep_.bandHigh[v]);
        }
    }
    // The other programs first (underneath), dimmed, one legend entry for all of them.
    const double thin = std::max(1.0, theme().lineWidth * 0.7);
    bool othersInLegend = false;
    for (std::size_t p = 0; p < sweep_.programs.size(); ++p) {
        if (selected_ && p == *selected_)
            continue;
        auto* graph = plot()->addGraph(x, y);
        graph->setData(keys, curve(p), true);
        graph->setPen(QPen(theme().tint(theme().reference, 0.45), thin));
        graph->setName(tr("other programs"));
        if (othersInLegend)
            graph->removeFromLegend();
        othersInLegend = true;
    }
    meanGraph_ = plot()->addGraph(x, y);
    meanGraph_->setData(
        keys, QVector<double>(sweep_.geometricMeanCpi.begin(), sweep_.geometricMeanCpi.end()),
        true);
    meanGraph_->setPen(QPen(theme().foreground, theme().lineWidth * 1.6, Qt::DashLine));
    meanGraph_->setName(
        tr("geometric mean of %n program(s)", nullptr, static_cast<int>(sweep_.programs.size())));
    if (selected_) {
        selectedGraph_ = plot()->addGraph(x, y);
        selectedGraph_->setData(keys, curve(*selected_), true);
        selectedGraph_->setPen(QPen(theme().target, theme().lineWidth * 2.0));
        selectedGraph_->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, 7 * theme().fontScale));
        selectedGraph_->setName(QString::fromStdString(sweep_.programs[*selected_]));
    }
    x->setTicker(sequenceTicker(x, labels, keys));
    x->setSubTicks(false);
    x->setRange(-0.3, n - 0.7);
    const ParameterSpec& spec = ParameterSpace::spec(sweep_.parameter);
    x->setLabel(QString::fromStdString(spec.label) +
                (spec.unit.empty()
                     ? QString()
                     : QStringLiteral(" (%1)").arg(QString::fromStdString(spec.unit))));
    const double margin = std::max(0.02, (high - low) * 0.08);
    y->setRange(std::max(0.0, low - margin), high + margin);
    y->setLabel(tr("predicted CPI (lower is faster)"));

    // The current value.
    auto* rule = new QCPItemStraightLine(plot());
    rule->point1->setCoords(double(sweep_.current), 0);
    rule->point2->setCoords(double(sweep_.current), 1);
    rule->setPen(QPen(theme().foreground, 1.0, Qt::DotLine));
    auto* label = new QCPItemText(plot());
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->position->setType(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(double(sweep_.current), high + margin);
    label->setPadding(QMargins(4, 2, 0, 0));
    label->setText(
        (exporting() ? tr("target: %1") : tr("sliders: %1"))
            .arg(ChartFormat::parameterValue(sweep_.parameter, sweep_.values[sweep_.current])));
    label->setFont(theme().font(0.85));
    label->setColor(theme().foreground);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

QString SweepView::hoverTextAt(const QPointF& pos) {
    if (sweep_.values.empty() || !plot()->axisRect()->rect().contains(pos.toPoint()))
        return {};
    const double key = plot()->axisRect()->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
    const long v = std::lround(key);
    if (v < 0 || v >= long(sweep_.values.size()))
        return {};
    const auto index = static_cast<std::size_t>(v);
    const double current = sweep_.geometricMeanCpi[sweep_.current];
    QString text = QString::fromStdString(ParameterSpace::spec(sweep_.parameter).label) +
                   QStringLiteral(" ") +
                   ChartFormat::parameterValue(sweep_.parameter, sweep_.values[index]);
    if (selected_) {
        const double cpi = sweep_.cpi[index][*selected_];
        const double at = sweep_.cpi[sweep_.current][*selected_];
        text += tr("\n%1: CPI %2 (speed-up %3× against the sliders)")
                    .arg(QString::fromStdString(sweep_.programs[*selected_]),
                         QString::number(cpi, 'f', 3), QString::number(at / cpi, 'f', 3));
    }
    text += tr("\ngeometric mean: CPI %1 (speed-up %2×)")
                .arg(QString::number(sweep_.geometricMeanCpi[index], 'f', 3),
                     QString::number(current / sweep_.geometricMeanCpi[index], 'f', 3));
    return text;
}

ChartTable SweepView::dataTable() const {
    // One row per program and grid value (then the geometric mean's), long format for scripts.
    // cpi_low and cpi_high stay empty: the model has no uncertainty band yet, and none is faked.
    ChartTable table;
    table.header = {QStringLiteral("program"), QStringLiteral("parameter"),
                    QStringLiteral("value"),   QStringLiteral("cpi"),
                    QStringLiteral("cpi_low"), QStringLiteral("cpi_high")};
    const QString key = QString::fromStdString(ParameterSpace::spec(sweep_.parameter).key);
    const auto addRows = [&](const QString& program, auto cpiAt) {
        for (std::size_t v = 0; v < sweep_.values.size(); ++v)
            table.rows.push_back({program, key,
                                  ChartFormat::parameterValue(sweep_.parameter, sweep_.values[v]),
                                  ChartTable::number(cpiAt(v)), QString(), QString()});
    };
    for (std::size_t p = 0; p < sweep_.programs.size(); ++p)
        addRows(QString::fromStdString(sweep_.programs[p]),
                [&](std::size_t v) { return sweep_.cpi[v][p]; });
    addRows(QStringLiteral("geometric_mean"),
            [&](std::size_t v) { return sweep_.geometricMeanCpi[v]; });
    return table;
}

} // namespace concorde::ui
