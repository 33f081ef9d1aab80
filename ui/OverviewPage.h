#pragma once

#include "ViewPage.h"

namespace concorde::ui {

class OverviewView;
class Session;

/// The Overview tab: an OverviewView that shows every prediction of the session as it arrives,
/// in the session's theme; clicking a row selects that program.
class OverviewPage : public ViewPage {
    Q_OBJECT

public:
    explicit OverviewPage(Session& session, QWidget* parent = nullptr);

    OverviewView* view() const { return view_; }
    ChartView* chartView() const override;

private:
    void applyTheme();

    Session& session_;
    OverviewView* view_ = nullptr;
};

} // namespace concorde::ui
