#pragma once

#include "ChartView.h"
#include "explore/ModelValidation.h"

#include <QString>

class QCPGraph;

namespace concorde::ui {

/// The trust chart (issue 18, item 4): the model's predicted CPI against the reference
/// simulator's for every labelled (region, configuration) of the database, on log–log axes with
/// the diagonal and ±10 % lines. Programs the model was trained on and programs it never saw
/// (held out) are two series, so the out-of-distribution points stand out; the title gives the
/// mean error and the share over 10 % of each. A ChartView like the others (legend, theme,
/// hover text, CSV).
class ValidationView : public ChartView {
    Q_OBJECT

public:
    explicit ValidationView(QWidget* parent = nullptr);

    void setValidation(ModelValidation validation);
    const ModelValidation& validation() const { return validation_; }
    QCPGraph* trainedGraph() const { return trained_; }
    QCPGraph* heldOutGraph() const { return heldOut_; }
    /// The summary lines shown under the title (the overall errors; then, when some programs
    /// were held out of training, the errors of each side).
    QString summaryText() const;

    /// "program,region,source,simulated_cpi,predicted_cpi,error_percent,held_out", one row per
    /// label.
    ChartTable dataTable() const override;
    bool hasData() const override { return !validation_.points.empty(); }
    QString hoverTextAt(const QPointF& pos) override;
    Scope scope() const override { return Scope::EveryProgram; }

protected:
    void rebuild() override;

private:
    ModelValidation validation_;
    QCPGraph* trained_ = nullptr;
    QCPGraph* heldOut_ = nullptr;
};

} // namespace concorde::ui
