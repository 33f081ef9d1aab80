#pragma once

#include "ChartView.h"
#include "explore/ParameterSweep.h"

#include <QString>
#include <optional>

class QCPGraph;

namespace concorde::ui {

/// The sweep view's chart (issue 18): the predicted CPI of every program across every grid value
/// of one parameter, the others held at the sliders. The selected program is drawn bold in the
/// target's colour, the geometric mean over all programs bold and dashed, the other programs as
/// thin dimmed lines so that 24+ curves stay legible; a vertical rule marks the current value.
/// The grid values sit at equal distances (they are mostly powers of two), labelled with their
/// value. A ChartView like the others (title, legend, theme, hover text, CSV).
///
/// The plot is named "sweep_plot"; sweep() and dataTable() give the data as plotted.
class SweepView : public ChartView {
    Q_OBJECT

public:
    explicit SweepView(QWidget* parent = nullptr);

    /// Shows `sweep`, highlighting program `selected` (none: only the mean stands out).
    void setSweep(ParameterSweep sweep, std::optional<std::size_t> selected);
    /// Shows the empty message.
    void clear();
    const ParameterSweep& sweep() const { return sweep_; }
    std::optional<std::size_t> selected() const { return selected_; }

    QCPGraph* selectedGraph() const { return selectedGraph_; }
    QCPGraph* meanGraph() const { return meanGraph_; }
    /// "value,<program>...,geometric_mean", one row per grid value.
    ChartTable dataTable() const override;
    bool hasData() const override { return !sweep_.values.empty(); }
    QString hoverTextAt(const QPointF& pos) override;
    Scope scope() const override { return Scope::EveryProgram; }

protected:
    void rebuild() override;
    /// The window says "the sliders" where a file, read without them, says "the target".
    void renderModeChanged() override;

private:
    QString sweepTitle() const;
    ParameterSweep sweep_;
    std::optional<std::size_t> selected_;
    QCPGraph* selectedGraph_ = nullptr;
    QCPGraph* meanGraph_ = nullptr;
};

} // namespace concorde::ui
