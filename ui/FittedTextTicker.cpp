#include "FittedTextTicker.h"

#include <QFontMetricsF>
#include <algorithm>
#include <utility>
#include <vector>

namespace concorde::ui {

FittedTextTicker::FittedTextTicker(QCPAxis* axis, double gap) : axis_(axis), gap_(gap) {
    setSubTickCount(0);
}

void FittedTextTicker::addTick(double position, const QString& label, int priority) {
    QCPAxisTickerText::addTick(position, label);
    priorities_[position] = priority;
}

QVector<double> FittedTextTicker::createTickVector(double tickStep, const QCPRange& range) {
    const QVector<double> all = QCPAxisTickerText::createTickVector(tickStep, range);
    if (!axis_ || all.isEmpty())
        return all;
    const bool horizontal = axis_->orientation() == Qt::Horizontal;
    const QFontMetricsF metrics(axis_->tickLabelFont());
    const double gap = gap_ * metrics.height();
    // Pixel extent [from, to] of each label along the axis.
    struct Candidate {
        double position;
        int priority;
        double from, to;
    };
    std::vector<Candidate> candidates;
    for (const double position : all) {
        // QCPAxisTickerText::createTickVector returns only positions that are keys of mTicks.
        const QString& label = mTicks.value(position);
        const double centre = axis_->coordToPixel(position);
        const double half =
            0.5 * (horizontal ? metrics.horizontalAdvance(label) : metrics.height());
        candidates.push_back(
            {position, priorities_.value(position, 0), centre - half, centre + half});
    }
    // Level by level (one priority at a time), and a level only when all of its labels fit:
    // the kept set stays regular (every 4th region, every decade) instead of ragged.
    std::vector<std::pair<double, double>> taken; // pixel extents of kept labels
    const auto collides = [&](const Candidate& c) {
        return std::any_of(taken.begin(), taken.end(), [&](const auto& t) {
            return c.from < t.second + gap && t.first < c.to + gap;
        });
    };
    std::vector<int> levels;
    for (const Candidate& c : candidates)
        levels.push_back(c.priority);
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    std::vector<bool> keep(candidates.size(), false);
    for (const int level : levels) {
        const bool first = level == levels.front();
        std::vector<std::size_t> added;
        bool fits = true;
        for (std::size_t i = 0; i < candidates.size() && fits; ++i) {
            if (candidates[i].priority != level)
                continue;
            if (!collides(candidates[i])) {
                taken.emplace_back(candidates[i].from, candidates[i].to);
                added.push_back(i);
            } else if (!first) {
                fits = false; // the first level keeps what fits, so an axis is never bare
            }
        }
        if (!fits) {
            taken.resize(taken.size() - added.size());
            break;
        }
        for (const std::size_t i : added)
            keep[i] = true;
    }
    QVector<double> kept;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (keep[i])
            kept.push_back(candidates[i].position);
    std::sort(kept.begin(), kept.end());
    return kept;
}

} // namespace concorde::ui
