#include "ChartTheme.h"

#include "Theme.h"

namespace concorde::ui {

namespace {

/// The target, baseline and band colours of the explorer's light or dark scheme.
void setComparisonColours(ChartTheme& theme, Theme::Scheme scheme) {
    Theme look;
    look.setScheme(scheme);
    theme.target = look.target();
    theme.baseline = look.baseline();
    theme.band = look.highlight();
}

} // namespace

ChartTheme ChartTheme::light() {
    ChartTheme t;
    setComparisonColours(t, Theme::Scheme::Light);
    return t;
}

ChartTheme ChartTheme::dark() {
    ChartTheme t;
    t.name = QStringLiteral("dark");
    t.background = QColor(0x26, 0x28, 0x2B);
    t.foreground = QColor(0xEE, 0xEE, 0xEE);
    t.grid = QColor(0x45, 0x48, 0x4D);
    t.reference = QColor(0xBB, 0xBB, 0xBB);
    t.selection = QColor(0xF4, 0xF4, 0xF4);
    t.palette = ChartPalette::onDark();
    setComparisonColours(t, Theme::Scheme::Dark);
    return t;
}

ChartTheme ChartTheme::projector() {
    ChartTheme t;
    t.name = QStringLiteral("projector");
    t.lineWidth = 3.0;
    t.highlightWidth = 6.0;
    t.fontScale = 1.8;
    t.foreground = Qt::black;
    t.grid = QColor(0xC8, 0xC8, 0xC8);
    t.reference = QColor(0x50, 0x50, 0x50);
    t.selection = Qt::black;
    t.palette = ChartPalette::highContrast();
    setComparisonColours(t, Theme::Scheme::Light);
    return t;
}

ChartTheme ChartTheme::named(const QString& name) {
    if (name == QLatin1String("dark"))
        return dark();
    if (name == QLatin1String("projector"))
        return projector();
    return light();
}

QFont ChartTheme::font(double relative) const {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setStyleHint(QFont::SansSerif);
    f.setPointSizeF(kBasePointSize * fontScale * relative);
    return f;
}

QColor ChartTheme::tint(const QColor& colour, double opacity) const {
    const auto mix = [opacity](double over, double under) {
        return float(opacity * over + (1 - opacity) * under);
    };
    return QColor::fromRgbF(mix(colour.redF(), background.redF()),
                            mix(colour.greenF(), background.greenF()),
                            mix(colour.blueF(), background.blueF()));
}

} // namespace concorde::ui
