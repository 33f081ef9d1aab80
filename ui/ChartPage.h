#pragma once

#include "ViewPage.h"

#include <QString>

class QLabel;
class QPushButton;

namespace concorde::ui {

class ChartView;
class ExplorerBounds;
class Session;

/// A tab of the explorer around one chart view: a title line saying what is shown (the program
/// or the region drilled into, with a Back button while drilled), and the view, kept in the
/// session's theme. Subclasses fill the view in refresh(), which runs whenever the session's
/// configuration or program, the loaded bounds or the drilled region change.
///
/// The pages of a window share one ExplorerBounds; a page built without one (the headless export)
/// makes its own and loads it at once.
class ChartPage : public ViewPage {
    Q_OBJECT

public:
    ChartPage(Session& session, ExplorerBounds* bounds, QWidget* parent = nullptr);

    ChartView* chartView() const override { return view_; }
    Session& session() const { return session_; }
    ExplorerBounds& bounds() const { return *bounds_; }

    /// Recomputes what the view shows from the session.
    virtual void refresh() = 0;
    /// Refreshes now if a change arrived while the page was hidden, and finishes any background
    /// work the chart is waiting for: what an export must do first.
    void ensureCurrent() override;

protected:
    /// Puts `view` under the title (once, from the subclass constructor) and themes it;
    /// `content` (default: the view itself) is the widget holding it, e.g. a panel with controls.
    void setView(ChartView* view, QWidget* content = nullptr);
    void setTitle(const QString& title);
    /// Refresh when the session's prediction arrives too (pages showing predicted CPIs).
    void followPredictions();
    /// The page draws ExplorerBounds::series(): a change asks for it, and the page refreshes
    /// when it arrives (computed off the UI thread while the page is shown in a shown window; at
    /// once, on this thread, outside one). Call once the view is set: it fills the page.
    void followSeries();
    void showEvent(QShowEvent* event) override;
    /// Completes, on this thread, work the page runs in the background for its chart (the
    /// default has none).
    virtual void completeBackgroundWork() {}

private:
    /// refresh() now if the page can be seen (for a page following the series: once it is
    /// current), else when it is next shown.
    void refreshIfShown();
    void onSeriesReady();
    void applyTheme();
    void updateBackButton();

    Session& session_;
    ExplorerBounds* bounds_ = nullptr;
    ChartView* view_ = nullptr;
    QLabel* title_ = nullptr;
    QPushButton* back_ = nullptr;
    bool stale_ = false; ///< a change arrived while the page was hidden
    bool followsSeries_ = false;
};

} // namespace concorde::ui
