#include "Theme.h"

#include <QApplication>
#include <QStyle>

namespace concorde::ui {
namespace {

/// The platform's default application font, captured before any theme changes it.
const QFont& platformFont() {
    static const QFont font = QGuiApplication::font();
    return font;
}

} // namespace

Theme::Theme(QObject* parent) : QObject(parent) {
    platformFont(); // capture before applyToApplication() replaces the application font
}

void Theme::setScheme(Scheme scheme) {
    if (scheme == scheme_)
        return;
    scheme_ = scheme;
    emit changed();
}

void Theme::setProjector(bool on) {
    if (on == projector_)
        return;
    projector_ = on;
    emit changed();
}

QString Theme::schemeName(Scheme scheme) {
    return scheme == Scheme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

QString Theme::chartThemeName() const {
    return projector_ ? QStringLiteral("projector") : schemeName(scheme_);
}

std::optional<Theme::Scheme> Theme::schemeFromName(const QString& name) {
    if (name.compare(QLatin1String("light"), Qt::CaseInsensitive) == 0)
        return Scheme::Light;
    if (name.compare(QLatin1String("dark"), Qt::CaseInsensitive) == 0)
        return Scheme::Dark;
    return std::nullopt;
}

const std::array<QColor, 8>& Theme::okabeIto() {
    static const std::array<QColor, 8> colours = {
        QColor(0x00, 0x00, 0x00), QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9),
        QColor(0x00, 0x9E, 0x73), QColor(0xF0, 0xE4, 0x42), QColor(0x00, 0x72, 0xB2),
        QColor(0xD5, 0x5E, 0x00), QColor(0xCC, 0x79, 0xA7),
    };
    return colours;
}

QColor Theme::series(int i) const {
    const auto& c = okabeIto();
    // Blue, orange, bluish green, vermillion, reddish purple, sky blue, then the colour with the
    // least contrast on the background (yellow on light, black on dark) last but one.
    static const int lightOrder[] = {5, 1, 3, 6, 7, 2, 0, 4};
    static const int darkOrder[] = {2, 1, 3, 6, 7, 5, 4, 0};
    const int* order = scheme_ == Scheme::Dark ? darkOrder : lightOrder;
    const int n = static_cast<int>(c.size());
    return c[static_cast<std::size_t>(order[((i % n) + n) % n])];
}

QColor Theme::background() const {
    if (scheme_ == Scheme::Dark)
        return projector_ ? QColor(0, 0, 0) : QColor(0x1e, 0x1f, 0x22);
    return QColor(255, 255, 255);
}

QColor Theme::foreground() const {
    if (scheme_ == Scheme::Dark)
        return projector_ ? QColor(255, 255, 255) : QColor(0xe8, 0xe8, 0xe8);
    return projector_ ? QColor(0, 0, 0) : QColor(0x20, 0x20, 0x20);
}

QColor Theme::mutedForeground() const {
    if (projector_)
        return foreground(); // no grey text on a projector
    return scheme_ == Scheme::Dark ? QColor(0xb0, 0xb0, 0xb0) : QColor(0x55, 0x55, 0x55);
}

QColor Theme::gridLine() const {
    if (scheme_ == Scheme::Dark)
        return projector_ ? QColor(0x70, 0x70, 0x70) : QColor(0x44, 0x46, 0x4a);
    return projector_ ? QColor(0x99, 0x99, 0x99) : QColor(0xdd, 0xdd, 0xdd);
}

QColor Theme::target() const {
    return scheme_ == Scheme::Dark ? okabeIto()[2] : okabeIto()[5]; // sky blue / blue
}

QColor Theme::baseline() const {
    return okabeIto()[1]; // orange
}

QColor Theme::highlight() const {
    QColor c = okabeIto()[4]; // yellow
    c.setAlpha(scheme_ == Scheme::Dark ? 70 : 110);
    return c;
}

QColor Theme::better() const {
    return okabeIto()[3]; // bluish green
}

QColor Theme::worse() const {
    return okabeIto()[6]; // vermillion
}

QColor Theme::warningBackground() const {
    return scheme_ == Scheme::Dark ? QColor(0x4a, 0x3b, 0x00) : QColor(0xff, 0xf3, 0xc4);
}

QColor Theme::warningForeground() const {
    return scheme_ == Scheme::Dark ? QColor(0xff, 0xe0, 0x8a) : QColor(0x5a, 0x3d, 0x00);
}

QFont Theme::font() const {
    QFont f = platformFont();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * fontScale());
    else
        f.setPixelSize(static_cast<int>(f.pixelSize() * fontScale()));
    return f;
}

QFont Theme::font(double relative, bool bold) const {
    QFont f = font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * relative);
    else
        f.setPixelSize(static_cast<int>(f.pixelSize() * relative));
    f.setBold(bold);
    return f;
}

QPalette Theme::palette() const {
    QPalette p;
    const QColor bg = background();
    const QColor fg = foreground();
    const bool dark = scheme_ == Scheme::Dark;
    const QColor window = dark ? (projector_ ? QColor(0x10, 0x10, 0x10) : QColor(0x2b, 0x2d, 0x30))
                               : (projector_ ? QColor(255, 255, 255) : QColor(0xf0, 0xf0, 0xf0));
    const QColor button = dark ? QColor(0x3a, 0x3c, 0x40) : QColor(0xe8, 0xe8, 0xe8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, fg);
    p.setColor(QPalette::Base, bg);
    p.setColor(QPalette::AlternateBase, dark ? QColor(0x33, 0x35, 0x38) : QColor(0xee, 0xee, 0xee));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, fg);
    p.setColor(QPalette::PlaceholderText, mutedForeground());
    p.setColor(QPalette::Text, fg);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, fg);
    p.setColor(QPalette::BrightText, okabeIto()[6]);
    p.setColor(QPalette::Link, target());
    p.setColor(QPalette::Highlight, okabeIto()[5]);
    p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
    p.setColor(QPalette::Light, dark ? QColor(0x55, 0x57, 0x5c) : QColor(255, 255, 255));
    p.setColor(QPalette::Midlight, dark ? QColor(0x45, 0x47, 0x4c) : QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Mid, dark ? QColor(0x30, 0x32, 0x35) : QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::Dark, dark ? QColor(0x20, 0x21, 0x24) : QColor(0x70, 0x70, 0x70));
    p.setColor(QPalette::Shadow, QColor(0, 0, 0));
    const QColor disabled = dark ? QColor(0x80, 0x80, 0x80) : QColor(0x90, 0x90, 0x90);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

void Theme::applyToApplication() const {
    if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(palette());
    QApplication::setFont(font());
}

} // namespace concorde::ui
