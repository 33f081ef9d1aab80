#pragma once

#include "ChartPage.h"

namespace concorde::ui {

class TimeseriesView;

/// The bound timeseries tab: the TimeseriesView of the selected program (its regions end to end)
/// or the region drilled into, at the sliders' configuration, with the reference simulator's
/// per-window IPC overlaid where the database has labels.
class TimeseriesPage : public ChartPage {
    Q_OBJECT

public:
    explicit TimeseriesPage(Session& session, ExplorerBounds* bounds = nullptr,
                            QWidget* parent = nullptr);
    TimeseriesView* view() const { return view_; }
    void refresh() override;

private:
    TimeseriesView* view_ = nullptr;
};

} // namespace concorde::ui
