#pragma once

#include "ChartView.h"
#include "Session.h"

#include <QString>
#include <QVector>

class QCPBars;

namespace concorde::ui {

/// The A/B comparison chart (issue 18, item 3): the speed-up of configuration B (the target)
/// over A (the baseline) for every program, as bars from zero sorted by speed-up, with the
/// geometric mean over all programs as its own highlighted row on top; each row is labelled
/// with both CPIs. The configurations are named in the title (a preset's name, or "the
/// sliders"). A ChartView like the others (title, legend, theme, hover text, CSV). Every row
/// keeps its program's name: heightForEveryRow() is the height that takes, and ComparisonPage
/// scrolls when the window is shorter.
class ComparisonView : public ChartView {
    Q_OBJECT

public:
    struct Row {
        QString program; ///< empty for the geometric-mean row
        double cpiA = 0; ///< baseline
        double cpiB = 0; ///< target
        /// The model's band around each (equal to the CPI for a single model; the geometric
        /// mean's row has none and keeps the CPIs).
        double lowA = 0, highA = 0, lowB = 0, highB = 0;
        /// B's speed-up over A: cpiA / cpiB (1.25: B runs the program 25 % faster).
        double speedup() const { return cpiA / cpiB; }
    };

    explicit ComparisonView(QWidget* parent = nullptr);

    /// Shows `prediction`'s target (B) against its baseline (A), named `nameA` and `nameB`.
    void setComparison(const PredictionPtr& prediction, const QString& nameA, const QString& nameB);
    /// The rows as plotted, top to bottom: the geometric mean first, then the programs by
    /// speed-up, largest first.
    const QVector<Row>& rows() const { return rows_; }

    /// "program,cpi_a,cpi_a_low,cpi_a_high,cpi_b,cpi_b_low,cpi_b_high,speedup", the mean's
    /// program cell being "geometric mean" (its band cells empty).
    ChartTable dataTable() const override;
    bool hasData() const override { return !rows_.isEmpty(); }
    QString hoverTextAt(const QPointF& pos) override;
    Scope scope() const override { return Scope::EveryProgram; }

protected:
    void rebuild() override;
    /// Asks for the height at which every program is named (heightForEveryRow()).
    void afterLayout() override;

private:
    QVector<Row> rows_;
    QString nameA_;
    QString nameB_;
};

} // namespace concorde::ui
