#pragma once

#include "ViewPage.h"

class QLabel;

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
    /// "damage_banner": shown above the chart while the open database has damaged regions
    /// (Session::damageWarning(); the tooltip lists each region and why).
    QLabel* damageBanner() const { return banner_; }
    ChartView* chartView() const override;

private:
    void applyTheme();
    void showDamage();

    Session& session_;
    OverviewView* view_ = nullptr;
    QLabel* banner_ = nullptr;
};

} // namespace concorde::ui
