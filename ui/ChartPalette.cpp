#include "ChartPalette.h"

#include <QPainter>
#include <QPixmap>
#include <cmath>

namespace concorde::ui {
namespace {

QVector<QColor> colours(std::initializer_list<const char*> names) {
    QVector<QColor> out;
    for (const char* n : names)
        out.push_back(QColor(QString::fromLatin1(n)));
    return out;
}

/// Relative luminance (WCAG) below which a colour counts as near black (CIE L* about 20).
constexpr double kNearBlack = 0.03;

double luminance(const QColor& colour) {
    const auto linear = [](double c) {
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) +
           0.0722 * linear(colour.blueF());
}

} // namespace

ChartPalette::ChartPalette() : ChartPalette(standard()) {}

ChartPalette::ChartPalette(QString name, QVector<QColor> colours, bool onDarkBackground)
    : name_(std::move(name)), colours_(std::move(colours)), dark_(onDarkBackground) {}

ChartPalette ChartPalette::standard() {
    // Tol muted without its purple, and no dark grey: indigo, cyan, teal, green, olive, sand,
    // rose, wine. Purple sat between rose and wine, and the grey was the wine's twin to a
    // deuteranope (ΔE 1.4); these eight stay at least ΔE 15 apart under every common colour-
    // vision deficiency (tests/ui/ChartViewsTest). Curves past the eighth are dashed.
    return ChartPalette(QStringLiteral("tol-muted"),
                        colours({"#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77",
                                 "#CC6677", "#882255"}));
}

ChartPalette ChartPalette::highContrast() {
    // Okabe–Ito: blue, orange, bluish green, vermillion, sky blue, reddish purple, yellow. Its
    // black is left out: black is the charts' own ink (axes, the minimum bound, net changes).
    return ChartPalette(
        QStringLiteral("okabe-ito"),
        colours({"#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442"}));
}

ChartPalette ChartPalette::onDark() {
    // Okabe–Ito without black (invisible on a dark background): seven colours, then the dashed
    // and hatched variants.
    return ChartPalette(
        QStringLiteral("okabe-ito-dark"),
        colours({"#56B4E9", "#E69F00", "#009E73", "#D55E00", "#0072B2", "#CC79A7", "#F0E442"}));
}

QColor ChartPalette::colour(int index) const {
    if (colours_.isEmpty())
        return Qt::black;
    const QColor base = colours_[std::abs(index) % colours_.size()];
    switch (std::abs(index) / colours_.size()) {
    case 0:
        return base;
    case 1: { // towards more contrast with the background; where darker would be nearly
              // black (the charts' ink), lighter instead
        if (dark_)
            return base.lighter(145);
        const QColor darker = base.darker(170);
        return luminance(darker) < kNearBlack ? base.lighter(170) : darker;
    }
    default:
        return dark_ ? base.darker(150) : base.lighter(150);
    }
}

Qt::PenStyle ChartPalette::lineStyle(int index) const {
    if (colours_.isEmpty())
        return Qt::SolidLine;
    switch (std::abs(index) / colours_.size()) {
    case 0:
        return Qt::SolidLine;
    case 1:
        return Qt::DashLine;
    default:
        return Qt::DotLine;
    }
}

QBrush ChartPalette::brush(int index) const {
    const QColor fill = colour(index);
    if (brushStyle(index) == Qt::SolidPattern)
        return QBrush(fill);
    // A solid tile with stripes across it: as visible as a plain fill, yet unlike the colour's
    // first-round series even in grey-scale.
    const int tile = 10;
    QPixmap pixmap(tile, tile);
    pixmap.fill(fill);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    QColor stripe = dark_ ? QColor(0, 0, 0, 150) : QColor(255, 255, 255, 170);
    painter.setPen(QPen(stripe, 2.2));
    if (brushStyle(index) == Qt::BDiagPattern) {
        painter.drawLine(QPointF(-2, tile + 2), QPointF(tile + 2, -2));
        painter.drawLine(QPointF(-2, 2), QPointF(2, -2));
        painter.drawLine(QPointF(tile - 2, tile + 2), QPointF(tile + 2, tile - 2));
    } else {
        painter.drawLine(QPointF(0, tile / 2.0), QPointF(tile, tile / 2.0));
        painter.drawLine(QPointF(tile / 2.0, 0), QPointF(tile / 2.0, tile));
    }
    painter.end();
    return QBrush(pixmap);
}

Qt::BrushStyle ChartPalette::brushStyle(int index) const {
    if (colours_.isEmpty())
        return Qt::SolidPattern;
    switch (std::abs(index) / colours_.size()) {
    case 0:
        return Qt::SolidPattern;
    case 1:
        return Qt::BDiagPattern;
    default:
        return Qt::CrossPattern;
    }
}

} // namespace concorde::ui
