#pragma once

#include "Session.h"

#include <QString>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPItemRect;
class QCPItemText;
class QCPTextElement;
class QMouseEvent;

namespace concorde::ui {

/// Every program's predicted CPI at a glance: one row per program with the target's bar next to
/// the baseline's, sorted by baseline CPI (so rows stay put while target sliders are dragged),
/// the selected program highlighted, and the target's CPI and change against the baseline written
/// beside each row. It redraws on every prediction, so it follows a slider while it is dragged.
/// Hovering a row shows its numbers; clicking it selects the program.
///
/// The plot is named "overview_plot"; rows() and csv() give the data as plotted.
class OverviewView : public QWidget {
    Q_OBJECT

public:
    /// One plotted row.
    struct Row {
        QString program;
        double target = 0;
        double baseline = 0;
        bool selected = false;
    };

    explicit OverviewView(Session& session, QWidget* parent = nullptr);

    QCustomPlot* plot() const { return plot_; }
    QCPBars* targetBars() const { return target_; }
    QCPBars* baselineBars() const { return baseline_; }
    /// The rows as plotted, top to bottom.
    const QVector<Row>& rows() const { return rows_; }
    /// The plotted data as CSV: "program,target_cpi,baseline_cpi,delta_percent,selected", one
    /// line per row, top to bottom.
    QString csv() const;
    /// The text shown when hovering plot pixel `pos` (empty outside the rows).
    QString hoverTextAt(const QPoint& pos) const;

private:
    void showPrediction(const PredictionPtr& prediction);
    void rebuild();
    void restyle();
    int rowAt(const QPoint& pos) const;
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);

    Session& session_;
    QCustomPlot* plot_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QCPBars* target_ = nullptr;
    QCPBars* baseline_ = nullptr;
    QCPItemRect* band_ = nullptr;
    QVector<QCPItemText*> labels_;
    QVector<Row> rows_;
};

} // namespace concorde::ui
