#pragma once

#include "ChartPalette.h"

#include <QColor>
#include <QFont>
#include <QString>

namespace concorde::ui {

/// How the charts look: colours, line widths and font size. Views take a theme through
/// ChartView::setTheme and redraw with it; the main window switches between light, dark and
/// projector (docs/design.md §11: large fonts, thick lines, a high-contrast colour-blind-safe
/// palette).
struct ChartTheme {
    QString name = QStringLiteral("light");
    double lineWidth = 1.5;      ///< ordinary series, in pixels
    double highlightWidth = 3.5; ///< the highlighted series (binding resource, minimum)
    double fontScale = 1.0;      ///< multiplies kBasePointSize
    QColor background = Qt::white;
    QColor foreground = QColor(0x20, 0x20, 0x20); ///< text, axes, the minimum line
    QColor grid = QColor(0xD8, 0xD8, 0xD8);
    QColor reference = QColor(0x6E, 0x6E, 0x6E); ///< the simulated IPC overlay
    QColor selection =
        QColor(0x20, 0x20, 0x20); ///< the selected region's outline (no palette colour)
    ChartPalette palette = ChartPalette::standard();
    QColor target;   ///< the target configuration (the overview's bars), as Theme::target()
    QColor baseline; ///< the baseline configuration, as Theme::baseline()
    QColor band;     ///< translucent, behind the selected row, as Theme::highlight()

    static constexpr double kBasePointSize = 9.0;

    /// Dark text on white, Tol muted colours.
    static ChartTheme light();
    /// Light text on a dark grey background, Okabe–Ito colours.
    static ChartTheme dark();
    /// Light background, Okabe–Ito colours, fonts ×1.8, lines ×2.
    static ChartTheme projector();
    /// "light", "dark" or "projector"; anything else gives light().
    static ChartTheme named(const QString& name);

    /// The chart font at `relative` × the theme's size (titles use 1.3, tick labels 1.0).
    QFont font(double relative = 1.0) const;
    /// `colour` at `opacity` over the background, as an opaque colour: on screen lines are
    /// drawn segment by segment, and a translucent pen or fill darkens where pieces overlap
    /// (and blends pixel by pixel, much slower).
    QColor tint(const QColor& colour, double opacity) const;
};

} // namespace concorde::ui
