#pragma once

#include "ChartExportContext.h"
#include "ChartTable.h"

#include <QImage>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

class QCustomPlot;

namespace concorde::ui {

class ChartView;

/// Size and scale of an export (ChartExporter).
struct ChartExportOptions {
    /// Size of the chart in logical pixels (PDF and SVG points); invalid: the view's size when it
    /// is visible, else ChartView::defaultExportSize().
    QSize size;
    /// PNG only: device pixels per logical pixel (2 for a sharp image on a slide).
    double scale = 1.0;
    /// What the chart is (title line, footer; for a CSV, FILE.csv.json): without one, a chart is
    /// written as it is drawn and a CSV has nothing beside it.
    std::optional<ChartExportContext> context;
    /// Keep what only the window needs (hover tracer, selection marks, "click…" hints): by
    /// default an export draws the chart in ChartView::RenderMode::Export.
    bool keepInteractionState = false;
};

/// Writes charts for design reviews (docs/design.md §11): PNG (at a chosen scale), SVG
/// (QSvgGenerator), PDF (QCustomPlot::savePdf), CSV of the plotted data (ChartView::dataTable), the
/// clipboard (image, plus the CSV as text), and "export all for review" (every view into one
/// folder, files named after the views). Works offscreen: the headless `--export` mode of
/// concorde-explorer renders a view that was never shown.
///
/// A chart is drawn for the file (ChartView::RenderMode::Export: no interaction hints, hover
/// tracer or selection marks) with, given a ChartExportContext, a title line and a footer; the
/// window's chart is put back as it was afterwards. A CSV stays plain (the header row, then the
/// data) and, given a context, gets FILE.csv.json beside it with the same context and what each
/// column means.
///
/// Every function reports failure by returning false with a message naming the file and the
/// problem (unknown extension, missing or unwritable folder, a path that is a folder, a failed
/// render); nothing is left half-written: files are written to a temporary file beside the
/// target and renamed into place.
class ChartExporter {
public:
    enum class Format { Png, Svg, Pdf, Csv };

    using Options = ChartExportOptions;

    /// The format of `path` by its extension (case-insensitive: .png, .svg, .pdf, .csv).
    static std::optional<Format> formatOf(const QString& path);
    /// "png", "svg", "pdf", "csv".
    static QStringList extensions();
    /// ".png, .svg, .pdf or .csv", for messages.
    static QString extensionList();

    /// Writes `view` to `path` in the format of its extension (and PATH.json for a CSV with a
    /// context).
    static bool exportView(ChartView& view, const QString& path, const Options& options = {},
                           QString* error = nullptr);
    /// The same for any QCustomPlot with its data table (e.g. a chart that is not a ChartView).
    static bool exportPlot(QCustomPlot& plot, const ChartTable& table, const QString& path,
                           const Options& options, QString* error = nullptr);
    /// The view rendered to an image (size and scale as for PNG).
    static QImage renderImage(ChartView& view, const Options& options = {});
    /// Puts the view on the clipboard: the image, and the CSV of its data as text.
    static void copyToClipboard(ChartView& view, const Options& options = {});
    /// Writes every view into `folder` (created if missing) as <viewName>.<extension> for each
    /// extension (all four by default). Stops at the first failure. `written` receives the paths
    /// written.
    static bool exportAll(const QList<ChartView*>& views, const QString& folder,
                          const QStringList& extensions = {}, const Options& options = {},
                          QString* error = nullptr, QStringList* written = nullptr);

    /// Where the context of a CSV export goes: `csvPath` + ".json".
    static QString sidecarPath(const QString& csvPath);

private:
    static QSize sizeFor(ChartView& view, const Options& options);
};

} // namespace concorde::ui
