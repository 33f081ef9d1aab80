#pragma once

#include <QWidget>

namespace concorde::ui {

class ChartView;

/// A tab of the explorer as the view registry (ViewCatalog) builds it: a widget around one
/// chart. The chart is what File ▸ Export, the clipboard, "Export all for review" and the
/// headless export write, whichever view it is (the overview, CDFs, timeseries, Shapley, phases).
class ViewPage : public QWidget {
    Q_OBJECT

public:
    using QWidget::QWidget;

    /// The chart this page shows.
    virtual ChartView* chartView() const = 0;
    /// Brings the chart up to date before an export: a refresh a hidden page postponed, and the
    /// background work the chart waits for. The default has nothing to do.
    virtual void ensureCurrent() {}
};

} // namespace concorde::ui
