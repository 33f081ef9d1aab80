#pragma once

#include <QBrush>
#include <QColor>
#include <QString>
#include <QVector>
#include <Qt>

namespace concorde::ui {

/// Categorical colours for the charts (resources, Shapley players, phases), safe for the common
/// colour-vision deficiencies.
///
/// - standard(): eight colours of Paul Tol's "muted" scheme (designed to stay distinct under
///   deuteranopia, protanopia and tritanopia, and in grey-scale print; its purple is left out,
///   too close to its rose and wine). The ninth and tenth resources of the bound views get the
///   second round: darker and dashed.
/// - highContrast(): the Okabe–Ito scheme (Okabe & Ito, "Color Universal Design", 2002) without
///   its black, which the charts use as ink (axes, the minimum bound): seven saturated colours,
///   the usual choice for slides; meant for projector mode, where thin pastel lines wash out. Its
///   yellow is last, so it is used only by the seventh series.
/// - onDark(): Okabe–Ito without black (seven colours), for the dark theme.
///
/// Series beyond the palette's size reuse the colours darker (second round; lighter where darker
/// would be nearly black, the charts' ink) or lighter (third;
/// the other way round on a dark background),
/// with a different line style (dashed, then dotted) and a hatched fill for wide areas, so two
/// series never look identical, even in one-pixel bars where a pattern cannot show.
class ChartPalette {
public:
    /// The standard palette.
    ChartPalette();

    static ChartPalette standard();
    static ChartPalette highContrast();
    static ChartPalette onDark();

    const QString& name() const { return name_; }
    int size() const { return static_cast<int>(colours_.size()); }
    /// Colour of series `index` (any index; see the class comment beyond the palette's size).
    QColor colour(int index) const;
    /// Line style of series `index`: solid for the first round of colours, then dashed, dotted.
    Qt::PenStyle lineStyle(int index) const;
    /// Fill pattern of series `index`: solid for the first round, then hatched.
    Qt::BrushStyle brushStyle(int index) const;
    /// The fill for areas (bars) of series `index`: the colour, solid for the first round, then
    /// with stripes of the background's contrast across it (diagonal, then a grid).
    QBrush brush(int index) const;

private:
    ChartPalette(QString name, QVector<QColor> colours, bool onDarkBackground = false);

    QString name_;
    QVector<QColor> colours_;
    bool dark_ = false; ///< later rounds go lighter first (contrast with a dark background)
};

} // namespace concorde::ui
