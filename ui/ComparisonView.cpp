#include "ComparisonView.h"

#include "explore/ParameterSweep.h"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace concorde::ui {
namespace {

constexpr double kComparisonBarWidth = 0.6;

QString speedupText(double speedup) {
    const double percent = (speedup - 1.0) * 100.0;
    if (std::abs(percent) < 0.05)
        return QStringLiteral("±0.0 %");
    return (percent < 0 ? QStringLiteral("−") : QStringLiteral("+")) +
           QString::number(std::abs(percent), 'f', 1) + QStringLiteral(" %");
}

} // namespace

ComparisonView::ComparisonView(QWidget* parent) : ChartView(QStringLiteral("comparison"), parent) {
    setTitle(tr("A/B comparison"));
    setEmptyMessage(tr("No prediction yet: open a feature database"));
}

void ComparisonView::setComparison(const PredictionPtr& prediction, const QString& nameA,
                                   const QString& nameB) {
    rows_.clear();
    nameA_ = nameA;
    nameB_ = nameB;
    if (prediction && !prediction->programs.empty()) {
        const ExplorerPrediction& p = *prediction;
        QVector<Row> programs;
        for (std::size_t i = 0; i < p.programs.size(); ++i)
            programs.push_back({QString::fromStdString(p.programs[i]), p.baselineCpi[i],
                                p.targetCpi[i], p.baselineCpiLow[i], p.baselineCpiHigh[i],
                                p.targetCpiLow[i], p.targetCpiHigh[i]});
        std::stable_sort(programs.begin(), programs.end(),
                         [](const Row& a, const Row& b) { return a.speedup() > b.speedup(); });
        const double meanA = ParameterSweep::geometricMean(p.baselineCpi);
        const double meanB = ParameterSweep::geometricMean(p.targetCpi);
        rows_.push_back({QString(), meanA, meanB, meanA, meanA, meanB, meanB});
        rows_ += programs;
    }
    setTitle(tr("B = %1 against A = %2: speed-up of B per program").arg(nameB_, nameA_));
    rebuild();
}

void ComparisonView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    plot()->setInteractions({});
    QCPAxis* programs = rect->axis(QCPAxis::atLeft);
    QCPAxis* speedup = rect->axis(QCPAxis::atBottom);
    const int n = static_cast<int>(rows_.size());
    if (n == 0) {
        programs->setRange(0, 1);
        speedup->setRange(-1, 1);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    auto* mean = new QCPBars(programs, speedup);
    mean->setName(tr("geometric mean over programs"));
    auto* bars = new QCPBars(programs, speedup);
    bars->setName(tr("one program"));
    const double outline = std::max(1.0, theme().lineWidth / 1.5);
    for (auto [b, colour] :
         {std::pair{mean, theme().foreground}, std::pair{bars, theme().target}}) {
        b->setWidth(kComparisonBarWidth);
        b->setBrush(colour);
        b->setPen(QPen(colour.darker(140), outline));
    }
    QVector<double> keys;
    QStringList names;
    for (int i = 0; i < n; ++i) {
        const Row& row = rows_[i];
        const double percent = (row.speedup() - 1.0) * 100.0;
        (i == 0 ? mean : bars)->addData(rowKey(i, n), percent);
        keys << rowKey(i, n);
        names << (row.program.isEmpty() ? tr("geometric mean") : row.program);
    }
    programs->setTicker(sequenceTicker(programs, names, keys, kRowLabelGap));
    programs->grid()->setVisible(false);
    programs->setSubTicks(false);
    programs->setRange(0.4, n + 0.6);
    // Labels go right of zero or of a positive bar, so the room is on the right.
    double lowest = 0;
    double highest = 0;
    for (const Row& row : rows_) {
        lowest = std::min(lowest, (row.speedup() - 1.0) * 100.0);
        highest = std::max(highest, (row.speedup() - 1.0) * 100.0);
    }
    lowest = lowest < 0 ? lowest * 1.08 : -1.0;
    speedup->setRange(lowest, highest + std::max(1.0, highest - lowest) * 1.1);
    speedup->setLabel(tr("speed-up of B over A, %  (right: B is faster)"));
    auto* zero = new QCPItemStraightLine(plot());
    zero->point1->setCoords(0, 0);
    zero->point2->setCoords(0, 1);
    zero->setPen(QPen(theme().foreground, outline));
    for (int i = 0; i < n; ++i) {
        const Row& row = rows_[i];
        const double percent = (row.speedup() - 1.0) * 100.0;
        auto* label = new QCPItemText(plot());
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(6, 0, 0, 0));
        label->setClipToAxisRect(true);
        label->position->setCoords(std::max(percent, 0.0), rowKey(i, n));
        label->setText(speedupText(row.speedup()) + QStringLiteral("  (CPI ") +
                       QString::number(row.cpiA, 'f', 3) + QStringLiteral(" → ") +
                       QString::number(row.cpiB, 'f', 3) + QLatin1Char(')'));
        QFont font = theme().font(0.85);
        font.setBold(i == 0);
        label->setFont(font);
        label->setColor(theme().foreground);
    }
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void ComparisonView::afterLayout() {
    if (rows_.isEmpty())
        return;
    const QCPAxis* programs = plot()->axisRect()->axis(QCPAxis::atLeft);
    updateHeightForEveryRow(programs, rowNamePitch(programs));
}

QString ComparisonView::hoverTextAt(const QPointF& pos) {
    const int i = keyedRowAt(pos, static_cast<int>(rows_.size()));
    if (i < 0)
        return {};
    const Row& row = rows_[i];
    // A program's CPIs come with the model's band; the geometric mean has none.
    const auto cpi = [&](double value, double low, double high) {
        QString text = QString::number(value, 'f', 3);
        if (!row.program.isEmpty() && high > low)
            text += tr(" (band %1–%2)")
                        .arg(QString::number(low, 'f', 3), QString::number(high, 'f', 3));
        return text;
    };
    return tr("%1\nA = %2: CPI %3\nB = %4: CPI %5\nspeed-up of B: %6× (%7)")
        .arg(row.program.isEmpty() ? tr("geometric mean over programs") : row.program, nameA_,
             cpi(row.cpiA, row.lowA, row.highA), nameB_, cpi(row.cpiB, row.lowB, row.highB),
             QString::number(row.speedup(), 'f', 3), speedupText(row.speedup()));
}

ChartTable ComparisonView::dataTable() const {
    ChartTable table;
    table.header = {QStringLiteral("program"),    QStringLiteral("cpi_a"),
                    QStringLiteral("cpi_a_low"),  QStringLiteral("cpi_a_high"),
                    QStringLiteral("cpi_b"),      QStringLiteral("cpi_b_low"),
                    QStringLiteral("cpi_b_high"), QStringLiteral("speedup")};
    for (const Row& row : rows_) {
        const bool mean = row.program.isEmpty();
        const auto band = [&](double value) {
            return mean ? QString() : ChartTable::number(value);
        };
        table.rows.push_back({mean ? QStringLiteral("geometric mean") : row.program,
                              ChartTable::number(row.cpiA), band(row.lowA), band(row.highA),
                              ChartTable::number(row.cpiB), band(row.lowB), band(row.highB),
                              ChartTable::number(row.speedup())});
    }
    return table;
}

} // namespace concorde::ui
