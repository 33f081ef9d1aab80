#include "ShapleyView.h"

#include "ChartFormat.h"

#include <QMouseEvent>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <qcustomplot.h>

namespace concorde::ui {
namespace {

/// Player names as people read them: "ldst_queues" → "ldst queues" (the CSV keeps the keys).
QString displayName(const std::string& player) {
    return QString::fromStdString(player).replace(QLatin1Char('_'), QLatin1Char(' '));
}

} // namespace

ShapleyView::ShapleyView(QWidget* parent) : ChartView(QStringLiteral("shapley"), parent) {
    connect(plot(), &QCustomPlot::mousePress, this, &ShapleyView::onMousePress);
    setEmptyMessage(tr("No Shapley attribution yet:\nchoose a baseline and a target and press "
                       "Compute"));
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

bool ShapleyView::hasData() const {
    return report_ && !report_->programs.empty();
}

const ProgramAttribution* ShapleyView::shownProgram() const {
    if (!hasData())
        return nullptr;
    for (const auto& p : report_->programs)
        if (QString::fromStdString(p.program) == program_)
            return &p;
    return &report_->programs.front();
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
    if (mode_ == Mode::Programs) {
        for (const std::size_t p : order_)
            out.push_back(&report_->programs[p].total);
    } else {
        for (const auto& r : shownProgram()->regions)
            out.push_back(&r.attribution);
    }
    return out;
}

void ShapleyView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    bars_.clear();
    stack_.clear();
    categories_.clear();
    order_.clear();
    totalGraph_ = nullptr;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    y->setLabel(tr("CPI change, %1 \u2192 %2").arg(baselineName_, targetName_));
    rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    if (!hasData()) {
        x->setRange(0, 1);
        y->setRange(-1, 1);
        showEmptyMessage();
        plot()->replot();
        return;
    }
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
    double top = 0, bottom = 0;
    for (std::size_t i = 0; i < players; ++i) {
        bool any = false;
        for (const Attribution* a : cols)
            any = any || (i < a->players.size() && a->players[i].value != 0.0);
        if (!any)
            continue;
        const int p = static_cast<int>(i);
        auto* bars = new QCPBars(x, y);
        bars->setName(displayName(report.players[i].name));
        bars->setWidth(0.72);
        bars->setBrush(theme().palette.brush(p));
        bars->setPen(QPen(theme().background, std::max(0.5, theme().fontScale * 0.6)));
        QVector<double> keys, values;
        for (int k = 0; k < n; ++k) {
            keys.push_back(k);
            values.push_back(i < cols[k]->players.size() ? cols[k]->players[i].value : 0.0);
        }
        bars->setData(keys, values, true);
        if (below)
            bars->moveAbove(below);
        below = bars;
        bars_[p] = bars;
        stack_.push_back(p);
    }
    // Stack extents for the value range.
    for (int k = 0; k < n; ++k) {
        double up = 0, down = 0;
        for (const PlayerAttribution& pa : cols[k]->players)
            (pa.value > 0 ? up : down) += pa.value;
        top = std::max(top, up);
        bottom = std::min(bottom, down);
    }
    totalGraph_ = plot()->addGraph(x, y);
    totalGraph_->setName(tr("Net CPI change"));
    totalGraph_->setLineStyle(QCPGraph::lsNone);
    totalGraph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(theme().background, 1.5),
                        QBrush(theme().foreground), 11 * theme().fontScale));
    QVector<double> keys, totals;
    for (int k = 0; k < n; ++k) {
        keys.push_back(k);
        totals.push_back(cols[k]->delta());
    }
    totalGraph_->setData(keys, totals, true);
    totalGraph_->setLayer(QStringLiteral("highlight"));
    const double span = std::max(top - bottom, 1e-6);
    y->setRange(bottom - 0.08 * span, top + 0.08 * span);
    y->grid()->setZeroLinePen(QPen(theme().foreground, std::max(1.0, theme().fontScale)));
    plot()->replot();
}

QString ShapleyView::hoverTextAt(const QPointF& pos) {
    if (!hasData() || categories_.isEmpty())
        return {};
    QCPAxis* x = totalGraph_->keyAxis();
    QCPAxis* y = totalGraph_->valueAxis();
    if (!x->axisRect()->rect().contains(pos.toPoint()))
        return {};
    const double key = x->pixelToCoord(pos.x());
    const int k = static_cast<int>(std::lround(key));
    if (k < 0 || k >= categories_.size() || std::abs(key - k) > 0.4)
        return {};
    const Attribution& a = *columns()[std::size_t(k)];
    const double value = y->pixelToCoord(pos.y());
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
    const QString column = mode_ == Mode::Programs
                               ? categories_[k]
                               : tr("%1 region %2").arg(program(), categories_[k]);
    QString text = column;
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
        const QString region =
            mode_ == Mode::Programs ? QStringLiteral("all") : categories_[int(k)];
        for (const PlayerAttribution& p : cols[k]->players)
            table.rows.push_back(
                {programName, region, QString::fromStdString(p.player), ChartTable::number(p.value),
                 ChartTable::number(cols[k]->baselineCpi), ChartTable::number(cols[k]->targetCpi)});
    }
    return table;
}

} // namespace concorde::ui
