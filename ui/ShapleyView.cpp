#include "ShapleyView.h"

#include "ChartFormat.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <qcustomplot.h>

namespace concorde::ui {
namespace {

/// Mode::Region: rows 0 and 1 hold the region's and the program's stacks, row 2 separates them
/// from the players' rows.
constexpr int kFirstPlayerRow = 3;

/// Player names as people read them: "ldst_queues" → "ldst queues" (the CSV keeps the keys).
QString displayName(const std::string& player) {
    return QString::fromStdString(player).replace(QLatin1Char('_'), QLatin1Char(' '));
}

/// The coordinate of `axis` under the widget pixel `pos`, whichever way the axis runs.
double coordAt(const QCPAxis* axis, const QPointF& pos) {
    return axis->pixelToCoord(axis->orientation() == Qt::Horizontal ? pos.x() : pos.y());
}

} // namespace

ShapleyView::ShapleyView(QWidget* parent) : ChartView(QStringLiteral("shapley"), parent) {
    connect(plot(), &QCustomPlot::mousePress, this, &ShapleyView::onMousePress);
    connect(plot(), &QCustomPlot::afterLayout, this, &ShapleyView::fitValueLabels);
    setEmptyMessage(tr("No Shapley attribution yet"),
                    tr("Choose a baseline and a target and press Compute"));
}

void ShapleyView::setReport(std::shared_ptr<const AttributionReport> report) {
    report_ = std::move(report);
    rebuild();
}

void ShapleyView::setReport(AttributionReport report) {
    setReport(std::make_shared<const AttributionReport>(std::move(report)));
}

void ShapleyView::clear() {
    setReport(std::shared_ptr<const AttributionReport>());
}

void ShapleyView::setConfigNames(const QString& baseline, const QString& target) {
    baselineName_ = baseline;
    targetName_ = target;
    rebuild();
}

void ShapleyView::setMode(Mode mode) {
    mode_ = mode;
    rebuild();
}

void ShapleyView::setProgram(const QString& program) {
    program_ = program;
    rebuild();
}

void ShapleyView::setRegion(const QString& region) {
    region_ = region;
    rebuild();
}

bool ShapleyView::hasData() const {
    return report_ && !report_->programs.empty() && (mode_ != Mode::Region || shownRegion());
}

const ProgramAttribution* ShapleyView::shownProgram() const {
    if (!report_ || report_->programs.empty())
        return nullptr;
    for (const auto& p : report_->programs)
        if (QString::fromStdString(p.program) == program_)
            return &p;
    return &report_->programs.front();
}

const RegionAttribution* ShapleyView::shownRegion() const {
    const ProgramAttribution* p = shownProgram();
    if (!p)
        return nullptr;
    for (const auto& r : p->regions)
        if (QString::fromStdString(r.region) == region_)
            return &r;
    return nullptr;
}

QString ShapleyView::program() const {
    const ProgramAttribution* p = shownProgram();
    return p ? QString::fromStdString(p->program) : QString();
}

QCPBars* ShapleyView::playerBars(int player) const {
    return player >= 0 && player < bars_.size() ? bars_[player] : nullptr;
}

std::vector<const Attribution*> ShapleyView::columns() const {
    std::vector<const Attribution*> out;
    if (!hasData())
        return out;
    switch (mode_) {
    case Mode::Programs:
        for (const std::size_t p : order_)
            out.push_back(&report_->programs[p].total);
        break;
    case Mode::Regions:
        for (const auto& r : shownProgram()->regions)
            out.push_back(&r.attribution);
        break;
    case Mode::Region:
        out = {&shownRegion()->attribution, &shownProgram()->total};
        break;
    }
    return out;
}

void ShapleyView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    bars_.clear();
    stack_.clear();
    categories_.clear();
    order_.clear();
    rows_.clear();
    valueLabels_.clear();
    totalGraph_ = nullptr;
    if (!hasData()) {
        rect->axis(QCPAxis::atLeft)
            ->setLabel(tr("CPI change, %1 \u2192 %2").arg(baselineName_, targetName_));
        rect->axis(QCPAxis::atBottom)->setRange(0, 1);
        rect->axis(QCPAxis::atLeft)->setRange(-1, 1);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    if (mode_ == Mode::Region)
        rebuildRegion(rect);
    else
        rebuildColumns(rect);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

QCPBars* ShapleyView::addPlayerBars(QCPAxis* keyAxis, QCPAxis* valueAxis, std::size_t player,
                                    const QVector<double>& keys, const QVector<double>& values,
                                    QCPBars* below) {
    const int p = static_cast<int>(player);
    auto* bars = new QCPBars(keyAxis, valueAxis);
    bars->setName(displayName(report_->players[player].name));
    bars->setWidth(0.72);
    bars->setBrush(theme().palette.brush(p));
    bars->setPen(QPen(theme().background, std::max(0.5, theme().fontScale * 0.6)));
    bars->setData(keys, values, true);
    if (below)
        bars->moveAbove(below);
    bars_[p] = bars;
    stack_.push_back(p);
    return bars;
}

void ShapleyView::addTotals(QCPAxis* keyAxis, QCPAxis* valueAxis, const QVector<double>& keys,
                            const QVector<double>& totals) {
    totalGraph_ = new QCPGraph(keyAxis, valueAxis);
    totalGraph_->setName(tr("Net CPI change"));
    totalGraph_->setLineStyle(QCPGraph::lsNone);
    totalGraph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(theme().background, 1.5),
                        QBrush(theme().foreground), 11 * theme().fontScale));
    totalGraph_->setData(keys, totals, true);
    totalGraph_->setLayer(QStringLiteral("highlight"));
}

void ShapleyView::rebuildColumns(QCPAxisRect* rect) {
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    y->setLabel(tr("CPI change, %1 \u2192 %2").arg(baselineName_, targetName_));
    rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    const AttributionReport& report = *report_;
    if (mode_ == Mode::Programs) {
        order_.resize(report.programs.size());
        std::iota(order_.begin(), order_.end(), std::size_t(0));
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
            return report.programs[a].total.delta() > report.programs[b].total.delta();
        });
        for (const std::size_t p : order_)
            categories_.push_back(QString::fromStdString(report.programs[p].program));
        x->setLabel(tr("Program (sorted by total CPI change)"));
    } else {
        const ProgramAttribution* p = shownProgram();
        for (const auto& r : p->regions)
            categories_.push_back(QString::fromStdString(r.region));
        x->setLabel(tr("Region of %1 (execution order)").arg(QString::fromStdString(p->program)));
    }
    const auto cols = columns();
    const int n = static_cast<int>(cols.size());

    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    const int step = n > 40 ? (n + 39) / 40 : 1;
    for (int k = 0; k < n; k += step)
        ticker->addTick(k, categories_[k]);
    x->setTicker(ticker);
    x->grid()->setVisible(false);
    int longest = 0;
    for (const QString& c : categories_)
        longest = std::max(longest, int(c.size()));
    x->setTickLabelRotation(n > 8 || longest * n > 60 ? -40 : 0);
    x->setRange(-0.6, n - 0.4);

    // One bar set per player that contributes anywhere, stacked in player order; QCPBars stacks
    // positive values upwards and negative values downwards separately.
    const std::size_t players = report.players.size();
    bars_.fill(nullptr, int(players));
    QCPBars* below = nullptr;
    for (std::size_t i = 0; i < players; ++i) {
        bool any = false;
        for (const Attribution* a : cols)
            any = any || (i < a->players.size() && a->players[i].value != 0.0);
        if (!any)
            continue;
        QVector<double> keys, values;
        for (int k = 0; k < n; ++k) {
            keys.push_back(k);
            values.push_back(i < cols[k]->players.size() ? cols[k]->players[i].value : 0.0);
        }
        below = addPlayerBars(x, y, i, keys, values, below);
    }
    // Stack extents for the value range.
    double top = 0, bottom = 0;
    for (int k = 0; k < n; ++k) {
        double up = 0, down = 0;
        for (const PlayerAttribution& pa : cols[k]->players)
            (pa.value > 0 ? up : down) += pa.value;
        top = std::max(top, up);
        bottom = std::min(bottom, down);
    }
    QVector<double> keys, totals;
    for (int k = 0; k < n; ++k) {
        keys.push_back(k);
        totals.push_back(cols[k]->delta());
    }
    addTotals(x, y, keys, totals);
    const double span = std::max(top - bottom, 1e-6);
    y->setRange(bottom - 0.08 * span, top + 0.08 * span);
    y->grid()->setZeroLinePen(QPen(theme().foreground, std::max(1.0, theme().fontScale)));
}

void ShapleyView::rebuildRegion(QCPAxisRect* rect) {
    const ProgramAttribution& program = *shownProgram();
    const RegionAttribution& region = *shownRegion();
    const Attribution& own = region.attribution;
    const Attribution& whole = program.total;
    const QString name = QString::fromStdString(program.program);
    categories_ = {tr("%1 region %2").arg(name, QString::fromStdString(region.region)),
                   tr("%1, whole program").arg(name)};
    // The rows run down the left axis, CPI changes along the bottom; nothing to drag or zoom.
    QCPAxis* keyAxis = rect->axis(QCPAxis::atLeft);
    QCPAxis* valueAxis = rect->axis(QCPAxis::atBottom);
    valueAxis->setLabel(tr("CPI change, %1 \u2192 %2").arg(baselineName_, targetName_));
    keyAxis->setRangeReversed(true);
    keyAxis->grid()->setVisible(false);
    rect->setRangeDrag({});
    rect->setRangeZoom({});

    const std::size_t players = report_->players.size();
    const auto valueOf = [](const Attribution& a, std::size_t i) {
        return i < a.players.size() ? a.players[i].value : 0.0;
    };
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < players; ++i)
        if (valueOf(own, i) != 0.0 || valueOf(whole, i) != 0.0)
            shown.push_back(i);
    std::vector<std::size_t> largestFirst = shown;
    std::stable_sort(largestFirst.begin(), largestFirst.end(), [&](std::size_t a, std::size_t b) {
        return std::abs(valueOf(own, a)) > std::abs(valueOf(own, b));
    });
    std::vector<int> rowOf(players, -1);
    for (std::size_t r = 0; r < largestFirst.size(); ++r) {
        rows_.push_back(int(largestFirst[r]));
        rowOf[largestFirst[r]] = kFirstPlayerRow + int(r);
    }

    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    ticker->addTick(
        0, categories_[0] + QLatin1Char('\n') +
               tr("CPI %1 \u2192 %2")
                   .arg(ChartFormat::cpi(own.baselineCpi), ChartFormat::cpi(own.targetCpi)));
    ticker->addTick(
        1, categories_[1] + QLatin1Char('\n') +
               tr("CPI %1 \u2192 %2")
                   .arg(ChartFormat::cpi(whole.baselineCpi), ChartFormat::cpi(whole.targetCpi)));
    ticker->addTick(kFirstPlayerRow - 1,
                    tr("region %1 per player:").arg(QString::fromStdString(region.region)));
    for (std::size_t r = 0; r < largestFirst.size(); ++r)
        ticker->addTick(kFirstPlayerRow + int(r),
                        displayName(report_->players[largestFirst[r]].name));
    keyAxis->setTicker(ticker);
    keyAxis->setRange(-0.6, kFirstPlayerRow + int(rows_.size()) - 0.4);

    // Each player's bar set holds its segment of both stacks and its own row; nothing else sits
    // on its row, so there it stacks on zero.
    bars_.fill(nullptr, int(players));
    QCPBars* below = nullptr;
    for (const std::size_t i : shown) {
        below = addPlayerBars(keyAxis, valueAxis, i, {0.0, 1.0, double(rowOf[i])},
                              {valueOf(own, i), valueOf(whole, i), valueOf(own, i)}, below);
        below->setWidth(0.62);
    }
    addTotals(keyAxis, valueAxis, {0.0, 1.0}, {own.delta(), whole.delta()});

    double low = 0, high = 0;
    for (int k = 0; k < 2; ++k) {
        const Attribution& a = k == 0 ? own : whole;
        double up = 0, down = 0;
        for (const PlayerAttribution& pa : a.players)
            (pa.value > 0 ? up : down) += pa.value;
        low = std::min({low, down, a.delta()});
        high = std::max({high, up, a.delta()});
        addValueLabel(keyAxis, valueAxis, k, std::max({up, a.delta(), 0.0}),
                      tr("net %1").arg(ChartFormat::cpiChange(a.delta())), true);
    }
    for (const std::size_t i : largestFirst) {
        const double v = valueOf(own, i);
        addValueLabel(keyAxis, valueAxis, rowOf[i], v, ChartFormat::cpiChange(v), v >= 0);
    }
    const double margin = 0.03 * std::max(high - low, 1e-6);
    valueLow_ = low - margin;
    valueHigh_ = high + margin;
    valueAxis->setRange(valueLow_, valueHigh_); // fitValueLabels() widens it for the labels
    valueAxis->grid()->setZeroLinePen(QPen(theme().foreground, std::max(1.0, theme().fontScale)));

    // A rule between the two stacks and the players' rows.
    auto* rule = new QCPItemStraightLine(plot());
    rule->point1->setAxes(valueAxis, keyAxis);
    rule->point2->setAxes(valueAxis, keyAxis);
    rule->point1->setCoords(0, kFirstPlayerRow - 1.5);
    rule->point2->setCoords(1, kFirstPlayerRow - 1.5);
    rule->setPen(QPen(theme().grid, std::max(1.0, theme().fontScale)));
}

void ShapleyView::addValueLabel(QCPAxis* keyAxis, QCPAxis* valueAxis, double key, double value,
                                const QString& text, bool right) {
    auto* label = new QCPItemText(plot());
    label->setObjectName(QStringLiteral("shapley_value_label"));
    label->position->setAxes(valueAxis, keyAxis);
    label->position->setCoords(value, key);
    label->setPositionAlignment((right ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    const int padding = int(std::lround(5 * theme().fontScale));
    label->setPadding(QMargins(padding, 0, padding, 0));
    label->setText(text);
    label->setFont(theme().font(1.0));
    label->setColor(theme().foreground);
    valueLabels_.push_back(label);
}

void ShapleyView::fitValueLabels() {
    if (mode_ != Mode::Region || !totalGraph_)
        return;
    QCPAxis* axis = totalGraph_->valueAxis();
    double left = 8, right = 8;
    for (const QCPItemText* label : valueLabels_) {
        const QMargins padding = label->padding();
        const double width = QFontMetricsF(label->font()).horizontalAdvance(label->text()) +
                             padding.left() + padding.right() + 4;
        double& side = label->positionAlignment() & Qt::AlignLeft ? right : left;
        side = std::max(side, width);
    }
    const double width = axis->axisRect()->width();
    const double perPixel =
        std::max(valueHigh_ - valueLow_, 1e-6) / std::max(width - left - right, 0.3 * width);
    const QCPRange range(valueLow_ - left * perPixel, valueHigh_ + right * perPixel);
    if (range == axis->range())
        return;
    axis->setRange(range);
    axis->axisRect()->update(QCPLayoutElement::upPreparation); // ticks for the new range
}

QString ShapleyView::hoverTextAt(const QPointF& pos) {
    if (!hasData() || categories_.isEmpty() || !totalGraph_)
        return {};
    QCPAxis* keyAxis = totalGraph_->keyAxis();
    if (!keyAxis->axisRect()->rect().contains(pos.toPoint()))
        return {};
    const double key = coordAt(keyAxis, pos);
    const int k = static_cast<int>(std::lround(key));
    if (std::abs(key - k) > 0.4)
        return {};
    if (mode_ == Mode::Region && k >= kFirstPlayerRow && k - kFirstPlayerRow < rows_.size())
        return playerRowText(k - kFirstPlayerRow);
    if (k < 0 || k >= categories_.size())
        return {};
    return columnText(k, coordAt(totalGraph_->valueAxis(), pos));
}

QString ShapleyView::columnText(int column, double value) const {
    const Attribution& a = *columns()[std::size_t(column)];
    // The segment under the pointer: walk the stack on the pointer's side of zero.
    int hit = -1;
    double base = 0;
    for (const int p : stack_) {
        const double v = a.players[std::size_t(p)].value;
        if ((value >= 0) != (v >= 0) || v == 0)
            continue;
        const double lo = std::min(base, base + v), hi = std::max(base, base + v);
        if (value >= lo && value <= hi) {
            hit = p;
            break;
        }
        base += v;
    }
    QString text = mode_ == Mode::Regions ? tr("%1 region %2").arg(program(), categories_[column])
                                          : categories_[column];
    if (hit >= 0) {
        const double v = a.players[std::size_t(hit)].value;
        text +=
            QStringLiteral(" \u00b7 ") +
            tr("%1: %2 CPI")
                .arg(displayName(a.players[std::size_t(hit)].player), ChartFormat::cpiChange(v));
        if (a.delta() != 0)
            text += tr(" (%1 of the change)").arg(ChartFormat::percent(v / a.delta()));
    }
    text +=
        QLatin1Char('\n') + tr("CPI %1 \u2192 %2, change %3")
                                .arg(ChartFormat::cpi(a.baselineCpi), ChartFormat::cpi(a.targetCpi),
                                     ChartFormat::cpiChange(a.delta()));
    if (hit < 0) {
        // The largest contributions of the column.
        std::vector<std::size_t> order(a.players.size());
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::stable_sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) {
            return std::abs(a.players[l].value) > std::abs(a.players[r].value);
        });
        QStringList top;
        for (std::size_t i = 0; i < order.size() && top.size() < 3; ++i)
            if (a.players[order[i]].value != 0)
                top.push_back(
                    QStringLiteral("%1 %2").arg(QString::fromStdString(a.players[order[i]].player),
                                                ChartFormat::cpiChange(a.players[order[i]].value)));
        if (!top.isEmpty())
            text += QLatin1Char('\n') + tr("largest: %1").arg(top.join(QStringLiteral(", ")));
    }
    return text;
}

QString ShapleyView::playerRowText(int row) const {
    const std::size_t player = std::size_t(rows_[row]);
    const Attribution& own = shownRegion()->attribution;
    const Attribution& whole = shownProgram()->total;
    const double v = own.players[player].value;
    QString text =
        categories_[0] + QStringLiteral(" \u00b7 ") +
        tr("%1: %2 CPI").arg(displayName(own.players[player].player), ChartFormat::cpiChange(v));
    if (own.delta() != 0)
        text += tr(" (%1 of the change)").arg(ChartFormat::percent(v / own.delta()));
    text +=
        QLatin1Char('\n') +
        tr("%1: %2 CPI").arg(categories_[1], ChartFormat::cpiChange(whole.players[player].value));
    return text;
}

void ShapleyView::onMousePress(QMouseEvent* event) {
    if (!hasData() || mode_ != Mode::Programs || categories_.isEmpty() ||
        event->button() != Qt::LeftButton)
        return;
    QCPAxis* x = totalGraph_->keyAxis();
    if (!x->axisRect()->rect().contains(event->position().toPoint()))
        return;
    const double key = x->pixelToCoord(event->position().x());
    const int k = static_cast<int>(std::lround(key));
    if (k >= 0 && k < categories_.size() && std::abs(key - k) <= 0.4)
        emit programActivated(categories_[k]);
}

ChartTable ShapleyView::dataTable() const {
    ChartTable table;
    table.header = {QStringLiteral("program"),      QStringLiteral("region"),
                    QStringLiteral("player"),       QStringLiteral("cpi_change"),
                    QStringLiteral("baseline_cpi"), QStringLiteral("target_cpi")};
    if (!hasData())
        return table;
    const auto cols = columns();
    for (std::size_t k = 0; k < cols.size(); ++k) {
        const QString programName = mode_ == Mode::Programs ? categories_[int(k)] : program();
        QString region = QStringLiteral("all");
        if (mode_ == Mode::Regions)
            region = categories_[int(k)];
        else if (mode_ == Mode::Region && k == 0)
            region = QString::fromStdString(shownRegion()->region);
        for (const PlayerAttribution& p : cols[k]->players)
            table.rows.push_back(
                {programName, region, QString::fromStdString(p.player), ChartTable::number(p.value),
                 ChartTable::number(cols[k]->baselineCpi), ChartTable::number(cols[k]->targetCpi)});
    }
    return table;
}

} // namespace concorde::ui
