#include "OverviewPage.h"

#include "ChartTheme.h"
#include "OverviewView.h"
#include "Session.h"
#include "Theme.h"

#include <QLabel>
#include <QVBoxLayout>

namespace concorde::ui {

OverviewPage::OverviewPage(Session& session, QWidget* parent)
    : ViewPage(parent), session_(session) {
    setObjectName(QStringLiteral("view_overview"));
    view_ = new OverviewView(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    banner_ = new QLabel(this);
    banner_->setObjectName(QStringLiteral("damage_banner"));
    banner_->setWordWrap(true);
    banner_->hide();
    layout->addWidget(banner_);
    // Forty-seven programs need more height than most windows leave the chart: the chart then
    // grows until every program is named, and the page scrolls.
    layout->addWidget(ChartView::rowScrollArea(view_, QStringLiteral("overview_scroll"), this));
    connect(&session_, &Session::predictionReady, view_, &OverviewView::setPrediction);
    connect(&session_, &Session::predictionReady, this, &OverviewPage::showDamage);
    connect(&session_, &Session::databaseOpened, this, &OverviewPage::showDamage);
    connect(view_, &OverviewView::programActivated, &session_, &Session::setProgram);
    connect(&session_.theme(), &Theme::changed, this, &OverviewPage::applyTheme);
    applyTheme();
    view_->setPrediction(session_.prediction());
    showDamage();
}

void OverviewPage::showDamage() {
    const QString warning = session_.damageWarning();
    banner_->setVisible(!warning.isEmpty());
    banner_->setText(QStringLiteral("⚠ ") + warning);
    banner_->setToolTip(session_.damageDetails());
}

ChartView* OverviewPage::chartView() const {
    return view_;
}

void OverviewPage::applyTheme() {
    view_->setTheme(ChartTheme::named(session_.theme().chartThemeName()));
    const Theme& theme = session_.theme();
    banner_->setFont(theme.font());
    banner_->setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: %2; padding: 4px 8px; }")
            .arg(theme.warningBackground().name(), theme.warningForeground().name()));
}

} // namespace concorde::ui
