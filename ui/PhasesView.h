#pragma once

#include "ChartView.h"
#include "explore/PhaseSummary.h"
#include "explore/ProgramTimeline.h"

class QCPBars;
class QCPGraph;
class QCPItemRect;
class QMouseEvent;

namespace concorde::ui {

/// Phase drill-down (docs/design.md §11): a program's regions along its execution, one bar per
/// region (in region-index order), its height the predicted CPI at the configuration shown and its
/// colour the region's phase, with the program's CPI (instruction-weighted mean) as a dashed
/// line. Clicking a region selects it and emits regionActivated(index into the timeline's
/// entries), so the main window can drill into that region's timeseries, CDFs and Shapley bars;
/// setSelectedRegion(-1) (the main window's back action) clears the mark.
class PhasesView : public ChartView {
    Q_OBJECT

public:
    explicit PhasesView(QWidget* parent = nullptr);

    /// The timeline and, for the legend, what sets each phase apart (PhaseSummary::summarise:
    /// its CPI, dominant bound and share of instructions; empty: the phases' numbers only).
    void setTimeline(ProgramTimeline timeline, std::vector<PhaseSummary> phases = {});
    const std::vector<PhaseSummary>& phaseSummaries() const { return phases_; }
    void clear();
    const ProgramTimeline& timeline() const { return timeline_; }
    /// Marks entry `index` (-1: none) without emitting regionActivated.
    void setSelectedRegion(int index);
    int selectedRegion() const { return selected_; }
    /// The entry under `pos` (QCustomPlot widget pixels: anywhere in its column), or -1.
    int regionAt(const QPointF& pos) const;

    /// The bars of phase `phase`; phase -1 is the regions without a phase. nullptr if none.
    QCPBars* phaseBars(int phase) const;
    /// The program CPI line, nullptr when the CPIs are unknown.
    QCPGraph* programCpiGraph() const { return programGraph_; }
    /// The outline of the selected region, nullptr when none is selected.
    QCPItemRect* selectionMark() const { return selectionMark_; }

    /// Columns position, region_index, region_id, program_start, instructions, phase,
    /// predicted_cpi: one row per region.
    ChartTable dataTable() const override;
    bool hasData() const override;
    QString hoverTextAt(const QPointF& pos) override;
    QSize defaultExportSize() const override { return {1600, 800}; }
    /// Every region of the program, whichever is drilled into.
    Scope scope() const override { return Scope::Program; }

signals:
    /// Entry `index` of the timeline was clicked.
    void regionActivated(int index);

protected:
    void rebuild() override;
    /// An export has neither the "click a region" hint nor the selected region's outline.
    void renderModeChanged() override;

private:
    void onMousePress(QMouseEvent* event);
    void placeSelectionMark();
    QString regionAxisLabel() const;
    bool cpisKnown() const;
    double barHeight(std::size_t entry) const;

    /// The legend's name of phase `phase`: its number, and its summary where there is one.
    QString phaseName(int phase) const;

    ProgramTimeline timeline_;
    std::vector<PhaseSummary> phases_;
    int selected_ = -1;
    QVector<QCPBars*> bars_; ///< index phase + 1 (0: no phase)
    QCPGraph* programGraph_ = nullptr;
    QCPItemRect* selectionMark_ = nullptr;
};

} // namespace concorde::ui
