#pragma once

#include "ChartView.h"
#include "attribution/AttributionReport.h"

#include <QStringList>
#include <memory>

class QCPAxis;
class QCPAxisRect;
class QCPBars;
class QCPGraph;
class QCPItemText;
class QMouseEvent;

namespace concorde::ui {

/// Shapley stacked bars (docs/design.md §9, §11): how the CPI change from the baseline to the
/// target splits among the players (parameters or groups).
///
/// - Mode::Programs: one column per program, all side by side, sorted by the total CPI change
///   (largest increase first), as in the Concorde paper's attribution figure.
/// - Mode::Regions: one column per region of one program, in execution order.
/// - Mode::Region: one region (the phase drill-down), as horizontal bars: the region's stacked
///   bar, the whole program's beside it for context, then one row per player with its value
///   written next to the bar, largest contribution first.
///
/// In each column the players' positive contributions stack upwards from zero and the negative
/// ones downwards, so the two stacks' difference is the net change, marked by a diamond. Each
/// player keeps its colour in both modes (its index in the PlayerSet); players that are the same
/// in baseline and target (zero everywhere) are left out. Hovering shows the player under the
/// pointer, its contribution and its share of the change; clicking a program's column emits
/// programActivated (the main window can then show that program's regions).
class ShapleyView : public ChartView {
    Q_OBJECT

public:
    enum class Mode { Programs, Regions, Region };

    explicit ShapleyView(QWidget* parent = nullptr);

    void setReport(std::shared_ptr<const AttributionReport> report);
    void setReport(AttributionReport report);
    void clear();
    const AttributionReport* report() const { return report_.get(); }
    /// Names of the baseline and target for the axis label ("little", "current sliders").
    void setConfigNames(const QString& baseline, const QString& target);
    void setMode(Mode mode);
    Mode mode() const { return mode_; }
    /// The program whose regions Mode::Regions shows (the first program when empty or unknown).
    void setProgram(const QString& program);
    /// The program Mode::Regions and Mode::Region show (resolved), empty without data.
    QString program() const;
    /// The region of program() that Mode::Region shows: its label in the report ("3").
    void setRegion(const QString& region);
    const QString& region() const { return region_; }
    /// The attribution Mode::Region shows, nullptr when the report has no such region.
    const RegionAttribution* shownRegion() const;
    /// Mode::Region: the players of the rows under the two stacked bars, top to bottom
    /// (PlayerSet indices).
    const QVector<int>& playerRows() const { return rows_; }

    /// The columns shown, left to right: program names (sorted) or region labels; in
    /// Mode::Region the two stacked bars, top to bottom ("gzip region 3", "gzip, whole program").
    QStringList categories() const { return categories_; }
    /// The bars of player `player` (PlayerSet index), nullptr when it is not drawn.
    QCPBars* playerBars(int player) const;
    /// The net-change markers.
    QCPGraph* totalGraph() const { return totalGraph_; }

    /// Columns program, region, player, cpi_change, baseline_cpi, target_cpi: per shown column
    /// (region "all" for programs) one row per player, in column order. Mode::Region: the
    /// region's rows, then the whole program's.
    ChartTable dataTable() const override;
    bool hasData() const override;
    QString hoverTextAt(const QPointF& pos) override;
    /// Every program, one program's regions, or the region drilled into.
    Scope scope() const override {
        return mode_ == Mode::Programs  ? Scope::EveryProgram
               : mode_ == Mode::Regions ? Scope::Program
                                        : Scope::Selection;
    }
    QSize defaultExportSize() const override { return {1600, 900}; }

signals:
    /// A program's column was clicked in Mode::Programs.
    void programActivated(const QString& program);

protected:
    void rebuild() override;

private:
    /// The attributions of the shown columns, in column order.
    std::vector<const Attribution*> columns() const;
    const ProgramAttribution* shownProgram() const;
    /// Mode::Programs and Mode::Regions: vertical stacked columns.
    void rebuildColumns(QCPAxisRect* rect);
    /// Mode::Region: horizontal bars, the stacks on top and the players below.
    void rebuildRegion(QCPAxisRect* rect);
    /// One bar set of player `player` at `keys` (stacked above `below`), kept in bars_/stack_.
    QCPBars* addPlayerBars(QCPAxis* keyAxis, QCPAxis* valueAxis, std::size_t player,
                           const QVector<double>& keys, const QVector<double>& values,
                           QCPBars* below);
    /// The net-change diamonds at `keys`.
    void addTotals(QCPAxis* keyAxis, QCPAxis* valueAxis, const QVector<double>& keys,
                   const QVector<double>& totals);
    /// Mode::Region, once the layout is final: widens the value range so the values written
    /// beside the bars fit inside the plot.
    void fitValueLabels();
    /// A value written beside a bar (Mode::Region), to its right (`right`) or left.
    void addValueLabel(QCPAxis* keyAxis, QCPAxis* valueAxis, double key, double value,
                       const QString& text, bool right);
    /// Hover text of stacked column `column` at CPI change `value`.
    QString columnText(int column, double value) const;
    /// Hover text of the player row `row` in Mode::Region.
    QString playerRowText(int row) const;
    void onMousePress(QMouseEvent* event);

    std::shared_ptr<const AttributionReport> report_;
    QString baselineName_ = QStringLiteral("baseline");
    QString targetName_ = QStringLiteral("target");
    Mode mode_ = Mode::Programs;
    QString program_;
    QString region_;
    QStringList categories_;
    std::vector<std::size_t> order_; ///< Programs mode: report program index per column
    QVector<QCPBars*> bars_;         ///< per player, nullptr when not drawn
    QVector<int> stack_;             ///< players in stacking order (bottom first)
    QCPGraph* totalGraph_ = nullptr;
    QVector<int> rows_;                   ///< Mode::Region: player per row under the stacks
    QVector<QCPItemText*> valueLabels_;   ///< Mode::Region: the values beside the bars
    double valueLow_ = 0, valueHigh_ = 0; ///< Mode::Region: extent of the bars
};

} // namespace concorde::ui
