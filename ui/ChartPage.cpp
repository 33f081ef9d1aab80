#include "ChartPage.h"

#include "ChartTheme.h"
#include "ChartView.h"
#include "ExplorerBounds.h"
#include "Session.h"
#include "Theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace concorde::ui {

ChartPage::ChartPage(Session& session, ExplorerBounds* bounds, QWidget* parent)
    : ViewPage(parent), session_(session), bounds_(bounds) {
    if (!bounds_) {
        // Headless: a one-shot export of the selected program reads only its bounds.
        bounds_ = new ExplorerBounds(session_, this);
        bounds_->loadNow(nullptr, session_.program());
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    back_ = new QPushButton(tr("◀ Back to the whole program"), this);
    back_->setObjectName(QStringLiteral("page_back"));
    back_->setToolTip(tr("Back to the whole program (Alt+Left)"));
    connect(back_, &QPushButton::clicked, bounds_, &ExplorerBounds::back);
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("page_title"));
    title_->setWordWrap(true);
    top->addWidget(back_);
    top->addWidget(title_, 1);
    layout->addLayout(top);

    connect(&session_, &Session::configChanged, this, &ChartPage::refreshIfShown);
    connect(&session_, &Session::programChanged, this, &ChartPage::refreshIfShown);
    connect(bounds_, &ExplorerBounds::boundsChanged, this, &ChartPage::refreshIfShown);
    connect(bounds_, &ExplorerBounds::selectionChanged, this, [this] {
        updateBackButton();
        refreshIfShown();
    });
    connect(&session_.theme(), &Theme::changed, this, &ChartPage::applyTheme);
    updateBackButton();
}

void ChartPage::setView(ChartView* view, QWidget* content) {
    view_ = view;
    static_cast<QVBoxLayout*>(layout())->addWidget(content ? content : view_, 1);
    applyTheme();
}

void ChartPage::setTitle(const QString& title) {
    title_->setText(title);
}

void ChartPage::followPredictions() {
    connect(&session_, &Session::predictionReady, this, &ChartPage::refreshIfShown);
}

void ChartPage::followSeries() {
    followsSeries_ = true;
    connect(bounds_, &ExplorerBounds::seriesReady, this, &ChartPage::onSeriesReady);
    refreshIfShown();
}

void ChartPage::refreshIfShown() {
    // Tabs in the background of a shown window wait until they are shown: a slider drag must
    // not pay for charts nobody sees (16 ms budget). Pages outside any shown window (headless
    // export, tests driving a page directly) refresh at once.
    if (!isVisible() && window()->isVisible()) {
        stale_ = true;
        return;
    }
    stale_ = false;
    if (followsSeries_) {
        if (!isVisible()) {
            bounds_->updateSeriesNow();
        } else if (!bounds_->isSeriesCurrent()) {
            bounds_->requestSeries(); // onSeriesReady() refreshes
            return;
        }
    }
    refresh();
}

void ChartPage::onSeriesReady() {
    if (!isVisible() && window()->isVisible())
        stale_ = true;
    else
        refresh(); // the latest series, even if the sliders have moved on since
}

void ChartPage::ensureCurrent() {
    if (followsSeries_)
        bounds_->updateSeriesNow(); // refreshes the page through onSeriesReady() if it changed
    if (stale_) {
        stale_ = false;
        refresh();
    }
    completeBackgroundWork();
}

void ChartPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_)
        refreshIfShown();
}

void ChartPage::applyTheme() {
    const Theme& theme = session_.theme();
    title_->setFont(theme.font(1.0, true));
    back_->setFont(theme.font(1.0));
    if (view_)
        view_->setTheme(ChartTheme::named(theme.chartThemeName()));
}

void ChartPage::updateBackButton() {
    back_->setVisible(bounds_->drilledRegion() >= 0);
}

} // namespace concorde::ui
