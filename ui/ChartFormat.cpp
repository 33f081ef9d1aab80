#include "ChartFormat.h"

#include <cmath>

namespace concorde::ui {

QString ChartFormat::ipc(double value) {
    return QString::number(value, 'f', 2);
}

QString ChartFormat::percent(double fraction) {
    return QString::number(100.0 * fraction, 'f', 1) + QStringLiteral(" %");
}

QString ChartFormat::cpi(double value) {
    if (std::isnan(value))
        return QStringLiteral("n/a");
    return QString::number(value, 'f', 3);
}

QString ChartFormat::cpiChange(double value) {
    if (std::isnan(value))
        return QStringLiteral("n/a");
    const QString magnitude = QString::number(std::abs(value), 'f', 3);
    return (value < 0 ? QStringLiteral("\u2212") : QStringLiteral("+")) + magnitude;
}

QString ChartFormat::instructions(std::uint64_t count) {
    const double v = static_cast<double>(count);
    if (v >= 1e9)
        return QString::number(v / 1e9, 'f', 2) + QStringLiteral(" G");
    if (v >= 1e6)
        return QString::number(v / 1e6, 'f', 1) + QStringLiteral(" M");
    if (v >= 1e3)
        return QString::number(v / 1e3, 'f', 1) + QStringLiteral(" k");
    return QString::number(count);
}

QString ChartFormat::parameterValue(ParamId id, double value) {
    return QString::fromStdString(ParameterSpace::spec(id).formatValue(value));
}

} // namespace concorde::ui
