#pragma once
// Checks and data shared by the chart legibility tests (ChartLegibilityTest, WindowFitTest).

#include "explore/SensitivityRanking.h"
#include "params/ParameterSpace.h"

#include <QString>
#include <qcustomplot.h>
#include <vector>

namespace concorde::testing {

/// Every parameter one step down and up, changes from -12 % to +9 %, sorted by size: a full
/// tornado of twenty rows.
inline std::vector<ParameterSensitivity> tornadoOfEveryParameter() {
    std::vector<ParameterSensitivity> ranking;
    int k = 0;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        ParameterSensitivity s;
        s.parameter = spec.id;
        s.value = 2;
        s.cpi = 1.0;
        s.lowerValue = 1;
        s.lowerCpi = 1.0 + 0.09 / (1 + k);
        if (k % 3 != 2) {
            s.upperValue = 4;
            s.upperCpi = 1.0 - 0.12 / (1 + k);
        }
        ranking.push_back(s);
        ++k;
    }
    return ranking;
}

/// Why the legend of `plot` is not legible as laid out (empty when it is): an entry squeezed
/// below its height (its text then overlaps the next entry's), two entries overlapping, or an
/// entry outside the legend box or the chart.
inline QString legendProblem(const QCustomPlot& plot) {
    const QCPLegend* legend = plot.legend;
    if (!legend->visible() || legend->itemCount() == 0)
        return {};
    std::vector<QRect> boxes;
    for (int i = 0; i < legend->itemCount(); ++i) {
        const QCPAbstractLegendItem* item = legend->item(i);
        if (!item)
            continue;
        const QRect box = item->outerRect();
        const int needed =
            const_cast<QCPAbstractLegendItem*>(item)->minimumOuterSizeHint().height();
        if (box.height() < needed - 1)
            return QStringLiteral("legend entry %1 is %2 px high, needs %3")
                .arg(i)
                .arg(box.height())
                .arg(needed);
        if (!legend->outerRect().contains(box) || !plot.viewport().contains(box))
            return QStringLiteral("legend entry %1 lies outside the legend or the chart").arg(i);
        for (const QRect& other : boxes)
            if (other.intersects(box))
                return QStringLiteral("legend entry %1 overlaps another").arg(i);
        boxes.push_back(box);
    }
    return {};
}

} // namespace concorde::testing
