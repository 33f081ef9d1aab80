#include "OverviewPage.h"

#include "ChartTheme.h"
#include "OverviewView.h"
#include "Session.h"
#include "Theme.h"

#include <QVBoxLayout>

namespace concorde::ui {

OverviewPage::OverviewPage(Session& session, QWidget* parent)
    : ViewPage(parent), session_(session) {
    setObjectName(QStringLiteral("view_overview"));
    view_ = new OverviewView(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
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
