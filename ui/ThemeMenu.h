#pragma once

#include <QMenu>

class QAction;

namespace concorde::ui {

class Theme;

/// "Theme": Light and Dark (exclusive) and Projector mode (large fonts, thick lines, maximum
/// contrast, full screen; F11). Actions "theme_light", "theme_dark", "action_projector" follow
/// the Theme, whoever changes it (a loaded session, the command line).
class ThemeMenu : public QMenu {
    Q_OBJECT

public:
    explicit ThemeMenu(Theme& theme, QWidget* parent = nullptr);

    QAction* projectorAction() const { return projector_; }

private:
    void showTheme();

    Theme& theme_;
    QAction* light_ = nullptr;
    QAction* dark_ = nullptr;
    QAction* projector_ = nullptr;
};

} // namespace concorde::ui
