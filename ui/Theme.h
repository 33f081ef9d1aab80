#pragma once

#include <QColor>
#include <QFont>
#include <QObject>
#include <QPalette>
#include <QString>
#include <array>
#include <optional>

namespace concorde::ui {

/// How the explorer looks: a light or dark colour scheme, and projector mode (large fonts, thick
/// lines, maximum contrast, full screen) for design reviews on a projector.
///
/// Views query it instead of hard-coding colours and sizes, and restyle on changed(). Every data
/// colour comes from the Okabe–Ito palette, which stays distinguishable with the common forms of
/// colour blindness; "better" and "worse" are bluish green and vermillion, and are always paired
/// with a sign or an arrow so that colour is never the only cue.
class Theme : public QObject {
    Q_OBJECT

public:
    enum class Scheme { Light, Dark };

    explicit Theme(QObject* parent = nullptr);

    Scheme scheme() const { return scheme_; }
    void setScheme(Scheme scheme);
    bool projector() const { return projector_; }
    void setProjector(bool on);

    /// "light" / "dark", as saved in session files and given to --theme.
    static QString schemeName(Scheme scheme);
    /// The name of the matching chart look for views styled by name: "projector" in projector
    /// mode, else the scheme's name (what ChartTheme::named() takes).
    QString chartThemeName() const;
    static std::optional<Scheme> schemeFromName(const QString& name);

    // --- Colours ---
    /// The eight Okabe–Ito colours: black, orange, sky blue, bluish green, yellow, blue,
    /// vermillion, reddish purple.
    static const std::array<QColor, 8>& okabeIto();
    /// The i-th colour for a data series (cycles); skips colours too faint on the background.
    QColor series(int i) const;
    QColor background() const;
    QColor foreground() const;
    /// Secondary text (axis titles, notes).
    QColor mutedForeground() const;
    QColor gridLine() const;
    QColor target() const;    ///< the target configuration in charts
    QColor baseline() const;  ///< the baseline configuration in charts
    QColor highlight() const; ///< behind the selected item (translucent)
    QColor better() const;    ///< lower CPI than the baseline
    QColor worse() const;     ///< higher CPI than the baseline
    QColor warningBackground() const;
    QColor warningForeground() const;

    // --- Sizes ---
    /// Width of data lines in pixels (thick in projector mode).
    double lineWidth() const { return projector_ ? 4.0 : 1.5; }
    /// Factor applied to every font (1.75 in projector mode).
    double fontScale() const { return projector_ ? 1.75 : 1.0; }
    /// The application's base font at the current scale.
    QFont font() const;
    /// `font()` scaled by `relative`, optionally bold (headlines, chart titles).
    QFont font(double relative, bool bold = false) const;

    /// The widget palette of the current scheme.
    QPalette palette() const;
    /// Sets the application's style (Fusion, so palettes apply alike everywhere), palette and
    /// font. Call on changed().
    void applyToApplication() const;

signals:
    void changed();

private:
    Scheme scheme_ = Scheme::Light;
    bool projector_ = false;
};

} // namespace concorde::ui
