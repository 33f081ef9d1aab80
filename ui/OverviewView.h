#pragma once

#include "ChartView.h"
#include "Session.h"

#include <QPair>
#include <QString>
#include <QVector>

class QCPBars;
class QCPItemRect;
class QCPItemText;
class QMouseEvent;

namespace concorde::ui {

/// Every program's predicted CPI at a glance: one row per program with the target's bar next to
/// the baseline's, sorted by baseline CPI (so rows stay put while target sliders are dragged),
/// the selected program highlighted, and the target's CPI and change against the baseline written
/// beside each row. A ChartView like the other charts (title, legend, theme, hover text, CSV);
/// OverviewPage feeds it every prediction, so it follows a slider while it is dragged. Clicking a
/// row emits programActivated().
///
/// The plot is named "overview_plot"; rows() and dataTable() give the data as plotted.
class OverviewView : public ChartView {
    Q_OBJECT

public:
    /// One plotted row.
    struct Row {
        QString program;
        double target = 0;
        double baseline = 0;
        bool selected = false;
        /// What of the program is damaged and skipped ("" when nothing): the row's name carries
        /// a ⚠ and its hover text says this.
        QString damage;
        /// Every region is damaged: no prediction, the row has no bars (last rows).
        bool lost = false;
    };

    explicit OverviewView(QWidget* parent = nullptr);

    /// Shows `prediction` (nullptr: the empty message).
    void setPrediction(const PredictionPtr& prediction);

    QCPBars* targetBars() const { return target_; }
    QCPBars* baselineBars() const { return baseline_; }
    /// The rows as plotted, top to bottom.
    const QVector<Row>& rows() const { return rows_; }
    /// "program,target_cpi,baseline_cpi,delta_percent,selected", one row per predicted program,
    /// top to bottom (a program whose every region is damaged has no CPI and no row).
    ChartTable dataTable() const override;
    bool hasData() const override { return !rows_.isEmpty(); }
    /// The program's CPIs and change for the row under `pos` (empty outside the rows).
    QString hoverTextAt(const QPointF& pos) override;
    Scope scope() const override { return Scope::EveryProgram; }

signals:
    /// The user clicked the row of `program`.
    void programActivated(const QString& program);

protected:
    void rebuild() override;
    /// An export marks no selected row and has no hover hint.
    void renderModeChanged() override { rebuild(); }
    /// Asks for the height at which every program is named (heightForEveryRow()), and widens
    /// the CPI axis until every row's value label fits beside its bar at this size.
    void afterLayout() override;

private:
    /// Row index under plot pixel `pos`, or -1.
    int rowAt(const QPointF& pos) const;
    void onMousePress(QMouseEvent* event);

    QCPBars* target_ = nullptr;
    QCPBars* baseline_ = nullptr;
    QVector<Row> rows_;
    QString damageCaption_; ///< under the chart while the database has damaged regions
    /// Each row's value label and the CPI its bar ends at (rebuilt with the chart).
    QVector<QPair<QCPItemText*, double>> valueLabels_;
    QCPItemRect* selectedBand_ = nullptr;
    double largest_ = 0;
};

} // namespace concorde::ui
