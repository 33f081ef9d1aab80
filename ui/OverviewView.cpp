#include "OverviewView.h"

#include <QMouseEvent>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace concorde::ui {
namespace {

/// Width of each bar of a row's pair, in rows.
constexpr double kOverviewBarWidth = 0.36;
/// Room on the right of the longest bar for the value written beside it (× its CPI).
constexpr double kLabelRoom = 1.3;
constexpr double kLabelRoomLargeFonts = 1.45;

QString cpiText(double cpi) {
    return QString::number(cpi, 'f', 3);
}

/// "−4.2 %" / "+3.0 %" / "±0.0 %".
QString deltaText(double target, double baseline) {
    const double delta = (target / baseline - 1.0) * 100.0;
    if (!std::isfinite(delta) || std::abs(delta) < 0.05)
        return QStringLiteral("±0.0 %");
    return (delta < 0 ? QStringLiteral("−") : QStringLiteral("+")) +
           QString::number(std::abs(delta), 'f', 1) + QStringLiteral(" %");
}

/// "1 damaged region" / "3 damaged regions": the count RegionCatalog::damageSummary starts with.
QString damagedCount(const ExplorerPrediction& p) {
    const QString summary = QString::fromStdString(p.damageSummary);
    return summary.section(QStringLiteral(" skipped"), 0, 0);
}

} // namespace

OverviewView::OverviewView(QWidget* parent) : ChartView(QStringLiteral("overview"), parent) {
    setTitle(tr("CPI of every program, target vs baseline"));
    setEmptyMessage(tr("No prediction yet: open a feature database"));
    connect(plot(), &QCustomPlot::mousePress, this, &OverviewView::onMousePress);
}

void OverviewView::setPrediction(const PredictionPtr& prediction) {
    rows_.clear();
    if (prediction) {
        const ExplorerPrediction& p = *prediction;
        for (std::size_t i = 0; i < p.programs.size(); ++i)
            rows_.push_back({QString::fromStdString(p.programs[i]), p.targetCpi[i],
                             p.baselineCpi[i], i == p.programIndex,
                             i < p.programDamage.size() ? QString::fromStdString(p.programDamage[i])
                                                        : QString()});
        // Sorted by baseline CPI, slowest first: the target's sliders never reorder the rows.
        std::stable_sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
            return a.baseline != b.baseline ? a.baseline > b.baseline : a.program < b.program;
        });
        // Programs with nothing left to predict stay visible, below the others.
        for (const auto& [program, why] : p.lostPrograms)
            rows_.push_back(
                {QString::fromStdString(program), 0, 0, false, QString::fromStdString(why), true});
        damageCaption_ = p.damageSummary.empty()
                             ? QString()
                             : tr("⚠ Damaged data: %1 skipped; the programs marked ⚠ are predicted "
                                  "from their remaining regions")
                                   .arg(damagedCount(p));
    } else {
        damageCaption_.clear();
    }
    rebuild();
}

void OverviewView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    plot()->setInteractions({}); // the rows and the CPI axis stay put
    // In a file, no hover hint and no selected row: the export names its subject itself.
    const bool live = !exporting();
    QString caption = damageCaption_;
    if (!caption.isEmpty())
        caption += live ? tr(" (hover a row for what is damaged).") : QStringLiteral(".");
    setCaption(caption);
    QCPAxis* programs = rect->axis(QCPAxis::atLeft);
    QCPAxis* cpi = rect->axis(QCPAxis::atBottom);
    target_ = new QCPBars(programs, cpi); // created first: first in the legend
    target_->setName(tr("Target"));
    baseline_ = new QCPBars(programs, cpi);
    baseline_->setName(tr("Baseline"));
    auto* group = new QCPBarsGroup(plot());
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    // Drawn in this order from low to high key: the target's bar sits above the baseline's.
    baseline_->setBarsGroup(group);
    target_->setBarsGroup(group);
    const double outline = std::max(1.0, theme().lineWidth / 1.5);
    for (auto [bars, colour] :
         {std::pair{target_, theme().target}, std::pair{baseline_, theme().baseline}}) {
        bars->setWidth(kOverviewBarWidth);
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(140), outline));
    }
    const int n = static_cast<int>(rows_.size());
    valueLabels_.clear();
    selectedBand_ = nullptr;
    largest_ = 0;
    if (n == 0) {
        programs->setRange(0, 1);
        cpi->setRange(0, 1);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }

    QVector<double> keys, targets, baselines;
    QStringList names;
    double largest = 0;
    int selected = -1;
    for (int i = 0; i < n; ++i) {
        const Row& row = rows_[i];
        keys << rowKey(i, n);
        targets << row.target;
        baselines << row.baseline;
        const QString name =
            row.damage.isEmpty() ? row.program : QStringLiteral("⚠ ") + row.program;
        names << (row.selected && live ? QStringLiteral("▸ ") + name : name);
        largest = std::max({largest, row.target, row.baseline});
        if (row.selected && live)
            selected = i;
    }
    target_->setData(keys, targets, true);
    baseline_->setData(keys, baselines, true);
    programs->setTicker(sequenceTicker(programs, names, keys, kRowLabelGap));
    programs->grid()->setVisible(false);
    programs->setSubTicks(false);
    programs->setRange(0.4, n + 0.6);
    const double room = theme().fontScale > 1.0 ? kLabelRoomLargeFonts : kLabelRoom;
    const double right = largest > 0 ? largest * room : 1.0;
    cpi->setLabel(tr("predicted CPI (lower is faster); rows sorted by baseline CPI"));
    cpi->setRange(0, right);

    for (int i = 0; i < n; ++i) {
        const Row& row = rows_[i];
        auto* label = new QCPItemText(plot());
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(6, 0, 0, 0));
        label->setClipToAxisRect(true);
        label->position->setCoords(std::max(row.target, row.baseline), rowKey(i, n));
        if (row.lost)
            label->setText(tr("⚠ every region damaged: no prediction"));
        else
            label->setText(cpiText(row.target) + QStringLiteral("  (") +
                           deltaText(row.target, row.baseline) + QLatin1Char(')') +
                           (row.damage.isEmpty() ? QString() : tr("  ⚠ regions skipped")));
        QFont font = theme().font(0.9);
        font.setBold(row.selected && live);
        label->setFont(font);
        label->setColor(theme().foreground);
        valueLabels_.push_back({label, std::max(row.target, row.baseline)});
    }
    largest_ = largest;
    if (selected >= 0) {
        auto* band = new QCPItemRect(plot());
        selectedBand_ = band;
        band->setLayer(QStringLiteral("background"));
        band->setClipToAxisRect(true);
        band->setBrush(theme().band);
        band->setPen(Qt::NoPen);
        // Within the axis range: SVG output ignores the clip, and PDF drops huge coordinates.
        band->topLeft->setCoords(0, rowKey(selected, n) + 0.5);
        band->bottomRight->setCoords(right, rowKey(selected, n) - 0.5);
    }
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void OverviewView::afterLayout() {
    if (valueLabels_.isEmpty() || largest_ <= 0)
        return;
    // The height at which the ticker keeps every program's name.
    QCPAxis* names = target_->keyAxis();
    updateHeightForEveryRow(names, rowNamePitch(names));
    QCPAxis* cpi = target_->valueAxis();
    const double width = cpi->axisRect()->width();
    // The smallest right end at which every label fits: a bar ending at v takes v / right of
    // the width, and its label needs its own pixels after it (at most 70 % of the width).
    double right = largest_ * 1.05;
    for (const auto& [label, value] : valueLabels_) {
        const QMargins padding = label->padding();
        const double labelWidth = QFontMetricsF(label->font()).horizontalAdvance(label->text()) +
                                  padding.left() + padding.right() + 6;
        right = std::max(right, value * width / std::max(width - labelWidth, 0.3 * width));
    }
    if (std::abs(right - cpi->range().upper) <= 1e-9 * right)
        return;
    cpi->setRange(0, right);
    if (selectedBand_) // within the axis range: SVG ignores the clip
        selectedBand_->bottomRight->setCoords(right, selectedBand_->bottomRight->coords().y());
    cpi->axisRect()->update(QCPLayoutElement::upPreparation); // ticks for the new range
}

int OverviewView::rowAt(const QPointF& pos) const {
    return keyedRowAt(pos, static_cast<int>(rows_.size()));
}

QString OverviewView::hoverTextAt(const QPointF& pos) {
    const int i = rowAt(pos);
    if (i < 0)
        return {};
    const Row& row = rows_[i];
    if (row.lost)
        return tr("%1\nNo prediction: %2").arg(row.program, row.damage);
    QString text =
        tr("%1\nTarget CPI %2 (IPC %3)\nBaseline CPI %4 (IPC %5)\nChange: %6")
            .arg(row.program, cpiText(row.target), cpiText(1.0 / row.target), cpiText(row.baseline),
                 cpiText(1.0 / row.baseline), deltaText(row.target, row.baseline));
    if (!row.damage.isEmpty())
        text += tr("\n⚠ Damaged data: %1. The CPI is from the other regions.").arg(row.damage);
    return text;
}

void OverviewView::onMousePress(QMouseEvent* event) {
    const int i = rowAt(event->position());
    if (i >= 0 && !rows_[i].lost && event->button() == Qt::LeftButton)
        emit programActivated(rows_[i].program);
}

ChartTable OverviewView::dataTable() const {
    ChartTable table;
    table.header = {QStringLiteral("program"), QStringLiteral("target_cpi"),
                    QStringLiteral("baseline_cpi"), QStringLiteral("delta_percent"),
                    QStringLiteral("selected")};
    for (const Row& row : rows_)
        if (!row.lost)
            table.rows.push_back({row.program, ChartTable::number(row.target),
                                  ChartTable::number(row.baseline),
                                  ChartTable::number((row.target / row.baseline - 1.0) * 100.0),
                                  row.selected ? QStringLiteral("1") : QStringLiteral("0")});
    return table;
}

} // namespace concorde::ui
