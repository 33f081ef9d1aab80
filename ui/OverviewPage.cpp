#include "OverviewPage.h"

#include "ChartTheme.h"
#include "OverviewView.h"
#include "Session.h"
#include "Theme.h"

#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>

namespace concorde::ui {

OverviewPage::OverviewPage(Session& session, QWidget* parent)
    : ViewPage(parent), session_(session) {
    setObjectName(QStringLiteral("view_overview"));
    view_ = new OverviewView(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // Forty-seven programs need more height than most windows leave the chart: the chart then
    // grows until every program is named, and the page scrolls.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("overview_scroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(view_);
    layout->addWidget(scroll);
    connect(view_, &OverviewView::heightForEveryRowChanged, view_,
            [this, least = view_->minimumHeight()](int height) {
                view_->setMinimumHeight(std::max(height, least));
            });
    connect(&session_, &Session::predictionReady, view_, &OverviewView::setPrediction);
    connect(view_, &OverviewView::programActivated, &session_, &Session::setProgram);
    connect(&session_.theme(), &Theme::changed, this, &OverviewPage::applyTheme);
    applyTheme();
    view_->setPrediction(session_.prediction());
}

ChartView* OverviewPage::chartView() const {
    return view_;
}

void OverviewPage::applyTheme() {
    view_->setTheme(ChartTheme::named(session_.theme().chartThemeName()));
}

} // namespace concorde::ui
