#include "PhasesView.h"

#include "ChartFormat.h"
#include "explore/BoundResources.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace concorde::ui {

PhasesView::PhasesView(QWidget* parent) : ChartView(QStringLiteral("phases"), parent) {
    connect(plot(), &QCustomPlot::mousePress, this, &PhasesView::onMousePress);
    setEmptyMessage(tr("No program selected"));
}

void PhasesView::setTimeline(ProgramTimeline timeline, std::vector<PhaseSummary> phases) {
    timeline_ = std::move(timeline);
    phases_ = std::move(phases);
    if (selected_ >= int(timeline_.entries.size()))
        selected_ = -1;
    rebuild();
}

QString PhasesView::phaseName(int phase) const {
    const auto it = std::find_if(phases_.begin(), phases_.end(),
                                 [&](const PhaseSummary& s) { return s.phase == phase; });
    if (it == phases_.end())
        return tr("phase %1").arg(phase);
    // What sets it apart: how fast it runs, what limits it, how much of the program it is.
    QString name = tr("phase %1: ").arg(phase);
    if (!std::isnan(it->cpi))
        name += tr("CPI %1, ").arg(ChartFormat::cpi(it->cpi));
    const auto& labels = BoundResources::labels();
    if (it->dominantResource < labels.size())
        name += tr("%1-bound (%2 of windows), ")
                    .arg(QString::fromStdString(labels[it->dominantResource]),
                         ChartFormat::percent(it->dominantShare));
    return name + tr("%1 of instructions").arg(ChartFormat::percent(it->instructionShare));
}

void PhasesView::clear() {
    selected_ = -1;
    setTimeline(ProgramTimeline{});
}

bool PhasesView::hasData() const {
    return !timeline_.entries.empty();
}

bool PhasesView::cpisKnown() const {
    return std::any_of(timeline_.entries.begin(), timeline_.entries.end(),
                       [](const ProgramTimeline::Entry& e) { return !std::isnan(e.cpi); });
}

double PhasesView::barHeight(std::size_t entry) const {
    const double cpi = timeline_.entries[entry].cpi;
    if (!cpisKnown())
        return 1.0; // no model: equal bars, coloured by phase only
    return std::isnan(cpi) ? 0.0 : cpi;
}

QCPBars* PhasesView::phaseBars(int phase) const {
    const int slot = phase + 1;
    return slot >= 0 && slot < bars_.size() ? bars_[slot] : nullptr;
}

void PhasesView::setSelectedRegion(int index) {
    selected_ = index >= 0 && index < int(timeline_.entries.size()) ? index : -1;
    placeSelectionMark();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void PhasesView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    bars_.clear();
    programGraph_ = nullptr;
    selectionMark_ = nullptr;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    if (!hasData()) {
        x->setRange(0, 1);
        y->setRange(0, 1);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const auto& entries = timeline_.entries;
    const int n = static_cast<int>(entries.size());
    const bool known = cpisKnown();
    x->setLabel(regionAxisLabel());
    y->setLabel(known ? tr("Predicted CPI") : tr("(no CPI model in the database)"));
    y->setTickLabels(known);

    QStringList regionNumbers;
    for (int k = 0; k < n; ++k)
        regionNumbers.push_back(QString::number(entries[std::size_t(k)].regionIndex));
    x->setTicker(sequenceTicker(x, regionNumbers));
    x->grid()->setVisible(false);
    x->setRange(-0.6, n - 0.4);

    // One bar set per phase (slot 0: regions without a phase), in phase order for the legend.
    const int phases = static_cast<int>(timeline_.phaseCount());
    bars_.fill(nullptr, phases + 1);
    double top = 0;
    for (int slot = 0; slot <= phases; ++slot) {
        QVector<double> keys, values;
        for (int k = 0; k < n; ++k) {
            const auto& phase = entries[std::size_t(k)].phase;
            const int entrySlot = phase && *phase >= 0 ? int(*phase) + 1 : 0;
            if (entrySlot != slot)
                continue;
            keys.push_back(k);
            values.push_back(barHeight(std::size_t(k)));
            top = std::max(top, values.back());
        }
        if (keys.isEmpty())
            continue;
        auto* bars = new QCPBars(x, y);
        bars->setWidth(0.8);
        if (slot == 0) {
            bars->setName(timeline_.hasPhases() ? tr("no phase") : tr("no phases computed"));
            bars->setBrush(QBrush(theme().grid));
        } else {
            const int p = slot - 1;
            bars->setName(phaseName(p));
            bars->setBrush(theme().palette.brush(p));
        }
        bars->setPen(QPen(theme().background, 1));
        bars->setData(keys, values, true);
        bars_[slot] = bars;
    }
    if (known) {
        const double cpi = timeline_.programCpi();
        if (!std::isnan(cpi)) {
            programGraph_ = plot()->addGraph(x, y);
            programGraph_->setName(tr("program CPI %1").arg(ChartFormat::cpi(cpi)));
            programGraph_->setPen(pen(theme().foreground, 1.0, Qt::DashLine));
            programGraph_->setData(QVector<double>{-0.6, n - 0.4}, QVector<double>{cpi, cpi});
            programGraph_->setLayer(QStringLiteral("highlight"));
            top = std::max(top, cpi);
        }
    }
    y->setRange(0, std::max(top, 1e-6) * 1.12);
    // The CPI on each bar while there is room for the numbers.
    const QFont valueFont = theme().font(n <= 16 ? 0.9 : 0.75);
    // Only where each number fits over its bar (projector fonts on a narrow window do not):
    // the values stay available on hover and in the CSV export.
    const int plotWidth = rect->width() > 0 ? rect->width() : plot()->width() * 3 / 4;
    const int labelWidth = QFontMetrics(valueFont).horizontalAdvance(QStringLiteral("0.000 "));
    const bool roomForValues = n > 0 && plotWidth / n >= labelWidth;
    if (known && n <= 32 && roomForValues)
        for (int k = 0; k < n; ++k) {
            const double cpi = entries[std::size_t(k)].cpi;
            if (std::isnan(cpi))
                continue;
            auto* label = new QCPItemText(plot());
            label->position->setAxes(x, y);
            label->position->setCoords(k, cpi);
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            label->setPadding(QMargins(2, 0, 2, 1));
            label->setText(QString::number(cpi, 'f', n <= 16 ? 3 : 2));
            label->setFont(valueFont);
            label->setColor(theme().foreground);
            label->setClipToAxisRect(true);
            // Over the program's CPI line, on a patch of background: a bar level with the
            // program's CPI would have the dashes strike through its number.
            label->setLayer(QStringLiteral("highlight"));
            QColor patch = theme().background;
            patch.setAlpha(225);
            label->setBrush(patch);
        }
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    placeSelectionMark();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

QString PhasesView::regionAxisLabel() const {
    const QString label =
        tr("Region of %1 in execution order").arg(QString::fromStdString(timeline_.program));
    return exporting() ? label : label + QLatin1Char('\n') + tr("(click a region to drill in)");
}

void PhasesView::renderModeChanged() {
    if (!hasData())
        return;
    plot()->axisRect()->axis(QCPAxis::atBottom)->setLabel(regionAxisLabel());
    placeSelectionMark();
}

void PhasesView::placeSelectionMark() {
    if (selectionMark_) {
        plot()->removeItem(selectionMark_);
        selectionMark_ = nullptr;
    }
    if (selected_ < 0 || !hasData() || exporting())
        return;
    QCPAxisRect* rect = plot()->axisRect();
    selectionMark_ = new QCPItemRect(plot());
    selectionMark_->setObjectName(QStringLiteral("selection_mark"));
    selectionMark_->topLeft->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    selectionMark_->bottomRight->setAxes(rect->axis(QCPAxis::atBottom),
                                         rect->axis(QCPAxis::atLeft));
    const double h = barHeight(std::size_t(selected_));
    const double range = rect->axis(QCPAxis::atLeft)->range().upper;
    selectionMark_->topLeft->setCoords(selected_ - 0.48, h + 0.03 * range);
    selectionMark_->bottomRight->setCoords(selected_ + 0.48, 0);
    selectionMark_->setPen(pen(theme().selection, theme().highlightWidth / theme().lineWidth));
    selectionMark_->setBrush(Qt::NoBrush);
    selectionMark_->setLayer(QStringLiteral("highlight"));
}

int PhasesView::regionAt(const QPointF& pos) const {
    if (!hasData())
        return -1;
    QCPAxisRect* rect = plot()->axisRect();
    if (!rect->rect().contains(pos.toPoint()))
        return -1;
    const double key = rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
    const int k = static_cast<int>(std::lround(key));
    if (k < 0 || k >= int(timeline_.entries.size()) || std::abs(key - k) > 0.5)
        return -1;
    return k;
}

void PhasesView::onMousePress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    const int k = regionAt(event->position());
    if (k < 0)
        return;
    setSelectedRegion(k);
    emit regionActivated(k);
}

QString PhasesView::hoverTextAt(const QPointF& pos) {
    const int k = regionAt(pos);
    plot()->setCursor(k >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (k < 0)
        return {};
    const auto& e = timeline_.entries[std::size_t(k)];
    QString text =
        tr("%1 region %2").arg(QString::fromStdString(timeline_.program)).arg(e.regionIndex);
    text += e.phase ? tr(" \u00b7 phase %1").arg(*e.phase) : tr(" \u00b7 no phase");
    text += QLatin1Char('\n') + tr("starts at instruction %1 \u00b7 %2 instructions")
                                    .arg(ChartFormat::instructions(e.programStart),
                                         ChartFormat::instructions(e.length));
    if (!std::isnan(e.cpi))
        text += QLatin1Char('\n') + tr("predicted CPI %1").arg(ChartFormat::cpi(e.cpi));
    text += QLatin1Char('\n') + tr("click to drill into this region");
    return text;
}

ChartTable PhasesView::dataTable() const {
    ChartTable table;
    table.header = {QStringLiteral("position"),     QStringLiteral("region_index"),
                    QStringLiteral("region_id"),    QStringLiteral("program_start"),
                    QStringLiteral("instructions"), QStringLiteral("phase"),
                    QStringLiteral("predicted_cpi")};
    for (std::size_t k = 0; k < timeline_.entries.size(); ++k) {
        const auto& e = timeline_.entries[k];
        table.rows.push_back(
            {QString::number(k), QString::number(e.regionIndex), QString::number(e.regionId),
             QString::number(e.programStart), QString::number(e.length),
             e.phase ? QString::number(*e.phase) : QString(), ChartTable::number(e.cpi)});
    }
    return table;
}

} // namespace concorde::ui
