#pragma once

#include "ChartView.h"
#include "explore/SensitivityRanking.h"

#include <QString>
#include <vector>

class QCPBars;
class QMouseEvent;

namespace concorde::ui {

/// The sensitivity ranking as a tornado chart: one row per parameter, largest effect on top,
/// with the predicted CPI change of one grid step down and one step up as two bars from zero
/// (left: faster, right: slower), each labelled with the step's value and change. A row whose
/// parameter has no step on one side (a grid end) has no bar there. A ChartView like the others
/// (title, legend, theme, hover text, CSV). Clicking a row emits parameterActivated().
///
/// Every row keeps its name: where the rows are too close for the theme's fonts (a projector
/// font in a small window), the names and values shrink, down to a size still legible on a
/// projector; below that, heightForEveryRow() is what the chart needs (the page scrolls) and a
/// fixed-size export thins the names.
///
/// The plot is named "sensitivity_plot"; ranking() and dataTable() give the data as plotted.
class SensitivityView : public ChartView {
    Q_OBJECT

public:
    explicit SensitivityView(QWidget* parent = nullptr);

    /// Shows `ranking` (largest first, as SensitivityRanking::rank gives it) for `subject` (the
    /// program, or the geometric mean); an empty ranking shows the empty message.
    void setRanking(std::vector<ParameterSensitivity> ranking, const QString& subject);
    const std::vector<ParameterSensitivity>& ranking() const { return ranking_; }

    QCPBars* lowerBars() const { return lower_; }
    QCPBars* upperBars() const { return upper_; }
    /// "parameter,value,lower_value,lower_cpi,lower_change_percent,upper_value,upper_cpi,
    /// upper_change_percent,cpi", one row per parameter, top to bottom (empty cells where a step
    /// does not exist).
    ChartTable dataTable() const override;
    bool hasData() const override { return !ranking_.empty(); }
    QString hoverTextAt(const QPointF& pos) override;
    Scope scope() const override { return Scope::Program; }
    /// The program, or the geometric mean of every program, as set with the ranking.
    QString subject() const override { return subject_; }
    /// The font size of the row names and values relative to the theme's (1: unshrunk).
    double labelScale() const { return labelScale_; }

signals:
    /// The user clicked the row of a parameter (`parameter` is its ParamId as an int: the
    /// enum's size_t type has no QMetaType stream operators).
    void parameterActivated(int parameter);

protected:
    void rebuild() override;
    void afterLayout() override;

private:
    int rowAt(const QPointF& pos) const;
    /// Row names at `scale` of the theme's size, values a little smaller; the left margin
    /// follows the longest name.
    void applyLabelScale();
    /// The distance between rows that their names and values need at `scale`, in pixels.
    double pitchAt(double scale) const;
    /// The smallest scale: kSmallestPointSize, or 1 for fonts already that small.
    double smallestScale() const;
    void onMousePress(QMouseEvent* event);

    QCPBars* lower_ = nullptr;
    QCPBars* upper_ = nullptr;
    std::vector<ParameterSensitivity> ranking_;
    QString subject_;
    QStringList names_;               ///< the row names, top to bottom
    QList<QCPItemText*> valueLabels_; ///< the bars' value labels
    double labelScale_ = 1.0;
};

} // namespace concorde::ui
