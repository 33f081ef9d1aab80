#include "ValidationView.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace concorde::ui {
namespace {

QString percent(double fraction) {
    return QString::number(fraction * 100.0, 'f', 1) + QStringLiteral(" %");
}

} // namespace

ValidationView::ValidationView(QWidget* parent) : ChartView(QStringLiteral("validation"), parent) {
    setTitle(tr("Predicted against simulated CPI"));
    setEmptyMessage(tr("This database holds no labels: add some with concorde label"));
}

void ValidationView::setValidation(ModelValidation validation) {
    validation_ = std::move(validation);
    rebuild();
}

QString ValidationView::summaryText() const {
    using Subset = ModelValidation::Subset;
    const auto all = validation_.summary();
    QString text = tr("%n label(s): mean error %1, %2 over 10 %", nullptr, int(all.count))
                       .arg(percent(all.meanAbsError), percent(all.over10Percent));
    const auto seen = validation_.summary(Subset::Trained);
    const auto unseen = validation_.summary(Subset::HeldOut);
    if (unseen.count > 0)
        text += tr("\ntrained-on programs %1, held-out programs %2")
                    .arg(percent(seen.meanAbsError), percent(unseen.meanAbsError));
    if (validation_.offGrid > 0)
        text += tr(" (%n off-grid label(s) not shown)", nullptr, int(validation_.offGrid));
    return text;
}

void ValidationView::rebuild() {
    QCPAxisRect* rect = resetPlot();
    trained_ = nullptr;
    heldOut_ = nullptr;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    setTitle(validation_.points.empty()
                 ? tr("Predicted against simulated CPI")
                 : tr("Predicted against simulated CPI\n%1").arg(summaryText()));
    if (validation_.points.empty()) {
        x->setRange(0, 1);
        y->setRange(0, 1);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    double low = std::numeric_limits<double>::max();
    double high = 0;
    QVector<double> tx, ty, hx, hy;
    for (const ModelValidation::Point& p : validation_.points) {
        (p.heldOut ? hx : tx) << p.simulatedCpi;
        (p.heldOut ? hy : ty) << p.predictedCpi;
        low = std::min({low, p.simulatedCpi, p.predictedCpi});
        high = std::max({high, p.simulatedCpi, p.predictedCpi});
    }
    low /= 1.15;
    high *= 1.15;
    for (QCPAxis* axis : {x, y}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        // Ticks at the powers of two: a CPI range rarely spans a decade.
        auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
        for (double tick = std::exp2(std::floor(std::log2(low))); tick <= high; tick *= 2)
            ticker->addTick(tick, QString::number(tick, 'g', 3));
        axis->setTicker(ticker);
        axis->setSubTicks(false);
        axis->setRange(low, high);
    }
    x->setLabel(tr("reference simulator CPI"));
    y->setLabel(tr("model's predicted CPI"));
    // The diagonal and ±10 %, as two-point lines (exact on log axes).
    const auto line = [&](double factor, Qt::PenStyle style, const QString& name) {
        auto* graph = plot()->addGraph(x, y);
        graph->setData(QVector<double>{low, high}, QVector<double>{low * factor, high * factor});
        graph->setPen(QPen(theme().foreground, 1.0, style));
        graph->setName(name);
        return graph;
    };
    line(1.0, Qt::SolidLine, tr("predicted = simulated"));
    line(1.1, Qt::DashLine, tr("±10 %"));
    line(0.9, Qt::DashLine, QString())->removeFromLegend();
    const double size = 5.0 * theme().fontScale;
    const auto dots = [&](const QVector<double>& xs, const QVector<double>& ys, QColor colour,
                          QCPScatterStyle::ScatterShape shape, const QString& name) {
        auto* graph = plot()->addGraph(x, y);
        graph->setData(xs, ys);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(shape, colour, theme().tint(colour, 0.5), size));
        graph->setName(name);
        return graph;
    };
    trained_ = dots(tx, ty, theme().baseline, QCPScatterStyle::ssDisc,
                    tr("programs the model trained on"));
    heldOut_ = dots(hx, hy, theme().target, QCPScatterStyle::ssTriangle,
                    tr("programs it never saw (held out)"));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

QString ValidationView::hoverTextAt(const QPointF& pos) {
    if (validation_.points.empty() || !plot()->axisRect()->rect().contains(pos.toPoint()))
        return {};
    QCPAxis* x = plot()->axisRect()->axis(QCPAxis::atBottom);
    QCPAxis* y = plot()->axisRect()->axis(QCPAxis::atLeft);
    const ModelValidation::Point* nearest = nullptr;
    double best = 12.0 * 12.0; // pixels
    for (const ModelValidation::Point& p : validation_.points) {
        const double dx = x->coordToPixel(p.simulatedCpi) - pos.x();
        const double dy = y->coordToPixel(p.predictedCpi) - pos.y();
        if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            nearest = &p;
        }
    }
    if (!nearest)
        return {};
    return tr("%1 region %2 (%3)%4\nsimulated CPI %5, predicted %6 (%7%8)")
        .arg(QString::fromStdString(nearest->program))
        .arg(nearest->regionIndex)
        .arg(QString::fromStdString(nearest->source),
             nearest->heldOut ? tr(", held out of training") : QString(),
             QString::number(nearest->simulatedCpi, 'f', 3),
             QString::number(nearest->predictedCpi, 'f', 3),
             nearest->error() >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
             percent(std::abs(nearest->error())));
}

ChartTable ValidationView::dataTable() const {
    ChartTable table;
    table.header = {QStringLiteral("program"),       QStringLiteral("region"),
                    QStringLiteral("source"),        QStringLiteral("simulated_cpi"),
                    QStringLiteral("predicted_cpi"), QStringLiteral("error_percent"),
                    QStringLiteral("held_out")};
    for (const ModelValidation::Point& p : validation_.points)
        table.rows.push_back({QString::fromStdString(p.program), QString::number(p.regionIndex),
                              QString::fromStdString(p.source), ChartTable::number(p.simulatedCpi),
                              ChartTable::number(p.predictedCpi),
                              ChartTable::number(p.error() * 100.0),
                              p.heldOut ? QStringLiteral("1") : QStringLiteral("0")});
    return table;
}

} // namespace concorde::ui
