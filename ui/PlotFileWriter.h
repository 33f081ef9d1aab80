#pragma once

#include "ChartExporter.h"

#include <QSize>
#include <QString>
#include <optional>

class QCustomPlot;

namespace concorde::ui {

/// Writes a QCustomPlot to an image or document file, and text (CSV) to a file: PNG through
/// QCustomPlot::savePng, SVG through QSvgGenerator (vector, editable in Inkscape), PDF through
/// QCustomPlot::savePdf (vector), all through ChartExporter. The format follows the extension.
class PlotFileWriter {
public:
    using Format = ChartExporter::Format;

    /// The format of `path` by its extension (ChartExporter::formatOf).
    static std::optional<Format> formatOf(const QString& path);
    /// ".png, .svg, .pdf or .csv" for messages.
    static QString extensionList();

    /// Renders `plot` at `size` pixels (PNG at `scale` × that for sharp slides). Returns an
    /// error message, empty on success.
    static QString writePlot(QCustomPlot& plot, const QString& path, Format format, QSize size,
                             double scale = 1.0);
    /// Writes `text` (UTF-8) atomically. Returns an error message, empty on success.
    static QString writeText(const QString& text, const QString& path);
};

} // namespace concorde::ui
