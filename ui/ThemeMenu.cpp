#include "ThemeMenu.h"

#include "Theme.h"

#include <QActionGroup>

namespace concorde::ui {

ThemeMenu::ThemeMenu(Theme& theme, QWidget* parent) : QMenu(tr("&Theme"), parent), theme_(theme) {
    setObjectName(QStringLiteral("menu_theme"));
    auto* schemes = new QActionGroup(this);
    light_ = addAction(tr("&Light"));
    light_->setObjectName(QStringLiteral("theme_light"));
    dark_ = addAction(tr("&Dark"));
    dark_->setObjectName(QStringLiteral("theme_dark"));
    for (QAction* action : {light_, dark_}) {
        action->setCheckable(true);
        schemes->addAction(action);
    }
    connect(light_, &QAction::triggered, this, [this] { theme_.setScheme(Theme::Scheme::Light); });
    connect(dark_, &QAction::triggered, this, [this] { theme_.setScheme(Theme::Scheme::Dark); });

    addSeparator();
    projector_ = addAction(tr("&Projector mode"));
    projector_->setObjectName(QStringLiteral("action_projector"));
    projector_->setCheckable(true);
    projector_->setShortcut(QKeySequence(Qt::Key_F11));
    projector_->setToolTip(tr("Large fonts, thick lines, high-contrast colour-blind-safe colours, "
                              "full screen"));
    connect(projector_, &QAction::toggled, this, [this](bool on) { theme_.setProjector(on); });

    showTheme();
    connect(&theme_, &Theme::changed, this, &ThemeMenu::showTheme);
}

void ThemeMenu::showTheme() {
    light_->setChecked(theme_.scheme() == Theme::Scheme::Light);
    dark_->setChecked(theme_.scheme() == Theme::Scheme::Dark);
    projector_->setChecked(theme_.projector());
}

} // namespace concorde::ui
