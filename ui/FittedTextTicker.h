#pragma once

#include <QMap>
#include <QPointer>
#include <qcustomplot.h>

namespace concorde::ui {

/// Text ticks that never overlap: each tick has a priority (0 first), and at every layout the
/// ticker keeps, in priority order and then from low to high position, only the ticks whose
/// labels do not collide with one already kept at the axis' current pixel length and tick-label
/// font. A narrow window or a projector font therefore thins the labels (every second region,
/// only the decades of a log axis) instead of printing them over each other.
///
/// The labels are measured on the axis the ticker is attached to; ChartView re-runs tick
/// generation after each layout so that the decision uses the final axis size.
class FittedTextTicker : public QCPAxisTickerText {
public:
    /// `gap`: free space kept between neighbouring labels, in multiples of the label font's
    /// height (rows of a chart, one label each, can sit closer than the ticks of a scale).
    explicit FittedTextTicker(QCPAxis* axis, double gap = kGap);

    /// Adds a tick; lower `priority` values are kept first when labels would overlap.
    void addTick(double position, const QString& label, int priority);

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;

private:
    QPointer<QCPAxis> axis_;
    QMap<double, int> priorities_;
    double gap_;

public:
    /// The default gap between labels, in multiples of the label font's height.
    static constexpr double kGap = 0.6;
};

} // namespace concorde::ui
