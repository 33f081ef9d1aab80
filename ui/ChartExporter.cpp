#include "ChartExporter.h"

#include "ChartView.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMimeData>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace concorde::ui {
namespace {

bool fail(QString* error, const QString& message) {
    if (error)
        *error = message;
    return false;
}

/// The checks every format shares: the folder exists and the path is not a folder.
bool checkTarget(const QString& path, QString* error) {
    const QFileInfo info(path);
    if (path.isEmpty())
        return fail(error, QStringLiteral("no output file given"));
    if (info.isDir())
        return fail(error, QStringLiteral("%1 is a folder, not a file").arg(path));
    const QFileInfo folder(info.absolutePath());
    if (!folder.exists() || !folder.isDir())
        return fail(error, QStringLiteral("cannot write %1: the folder %2 does not exist")
                               .arg(path, folder.filePath()));
    if (info.exists() && !info.isWritable())
        return fail(error, QStringLiteral("cannot write %1: the file is read-only").arg(path));
    return true;
}

/// Writes `bytes` to `path` atomically (QSaveFile).
bool writeFile(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    if (file.write(bytes) != bytes.size()) {
        file.cancelWriting();
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    }
    if (!file.commit())
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

QSize effectiveSize(QCustomPlot& plot, const ChartExporter::Options& options, QSize fallback) {
    if (options.size.isValid() && !options.size.isEmpty())
        return options.size;
    if (plot.isVisible() && plot.width() > 50 && plot.height() > 50)
        return plot.size();
    return fallback;
}

/// Draws a view for a file while it lives: in Export mode (unless asked to keep the window's
/// state), with the context's title line and footer, laid out for the export's size (legend
/// placement, caption wrapping); then puts the window's chart back.
class ExportLayout {
public:
    ExportLayout(ChartView& view, const QSize& size, const ChartExporter::Options& options)
        : view_(view), previous_(view.renderMode()) {
        if (!options.keepInteractionState)
            view_.setRenderMode(ChartView::RenderMode::Export);
        if (options.context)
            view_.setExportLines(options.context->titleLine(view_), options.context->footerLine());
        view_.fitLayout(size);
    }
    ~ExportLayout() {
        view_.setExportLines({}, {});
        view_.setRenderMode(previous_);
        view_.fitLayout(view_.plot()->size());
        view_.plot()->replot(QCustomPlot::rpQueuedReplot);
    }
    ExportLayout(const ExportLayout&) = delete;
    ExportLayout& operator=(const ExportLayout&) = delete;

private:
    ChartView& view_;
    ChartView::RenderMode previous_;
};

} // namespace

std::optional<ChartExporter::Format> ChartExporter::formatOf(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return Format::Png;
    if (suffix == QLatin1String("svg"))
        return Format::Svg;
    if (suffix == QLatin1String("pdf"))
        return Format::Pdf;
    if (suffix == QLatin1String("csv"))
        return Format::Csv;
    return std::nullopt;
}

QStringList ChartExporter::extensions() {
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"),
            QStringLiteral("csv")};
}

QString ChartExporter::extensionList() {
    return QStringLiteral(".png, .svg, .pdf or .csv");
}

QSize ChartExporter::sizeFor(ChartView& view, const Options& options) {
    return effectiveSize(*view.plot(), options, view.defaultExportSize());
}

QString ChartExporter::sidecarPath(const QString& csvPath) {
    return csvPath + QStringLiteral(".json");
}

bool ChartExporter::exportView(ChartView& view, const QString& path, const Options& options,
                               QString* error) {
    if (formatOf(path) == Format::Csv) { // data only: nothing to lay out or draw
        const ChartTable table = view.dataTable();
        if (!exportPlot(*view.plot(), table, path, options, error))
            return false;
        if (!options.context)
            return true;
        const QString sidecar = sidecarPath(path);
        if (!checkTarget(sidecar, error))
            return false;
        return writeFile(sidecar, options.context->sidecarJson(view, table), error);
    }
    Options resolved = options;
    resolved.size = sizeFor(view, options);
    const ExportLayout layout(view, resolved.size, options);
    return exportPlot(*view.plot(), view.dataTable(), path, resolved, error);
}

bool ChartExporter::exportPlot(QCustomPlot& plot, const ChartTable& table, const QString& path,
                               const Options& options, QString* error) {
    const auto format = formatOf(path);
    if (!format)
        return fail(error, QStringLiteral("cannot export to %1: unknown file type '%2' (use "
                                          ".png, .svg, .pdf or .csv)")
                               .arg(path, QFileInfo(path).suffix()));
    if (!checkTarget(path, error))
        return false;
    const QSize size = effectiveSize(plot, options, QSize(1280, 800));
    const int w = size.width(), h = size.height();
    switch (*format) {
    case Format::Csv:
        return writeFile(path, table.toCsv().toUtf8(), error);
    case Format::Png: {
        const double scale = options.scale > 0 ? options.scale : 1.0;
        const QImage image = plot.toPixmap(w, h, scale).toImage();
        if (image.isNull())
            return fail(error, QStringLiteral("cannot render %1: empty image").arg(path));
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!image.save(&buffer, "PNG"))
            return fail(error, QStringLiteral("cannot encode %1 as PNG").arg(path));
        return writeFile(path, bytes, error);
    }
    case Format::Svg: {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(QSize(w, h));
        generator.setViewBox(QRect(0, 0, w, h));
        generator.setTitle(QFileInfo(path).completeBaseName());
        generator.setDescription(QStringLiteral("Concorde Explorer chart"));
        QCPPainter painter;
        if (!painter.begin(&generator))
            return fail(error, QStringLiteral("cannot render %1 as SVG").arg(path));
        plot.toPainter(&painter, w, h);
        painter.end();
        return writeFile(path, bytes, error);
    }
    case Format::Pdf: {
        // savePdf writes the file itself: write beside the target, then rename into place.
        const QString partial = path + QStringLiteral(".part");
        QFile::remove(partial);
        const bool ok =
            plot.savePdf(partial, w, h, QCP::epNoCosmetic, QStringLiteral("Concorde Explorer"),
                         QFileInfo(path).completeBaseName());
        QFile check(partial);
        if (!ok || !check.open(QIODevice::ReadOnly) || !check.read(4).startsWith("%PDF")) {
            QFile::remove(partial);
            return fail(error, QStringLiteral("cannot write %1 as PDF").arg(path));
        }
        check.close();
        QFile::remove(path);
        if (!QFile::rename(partial, path)) {
            QFile::remove(partial);
            return fail(
                error,
                QStringLiteral("cannot write %1: renaming the finished PDF failed").arg(path));
        }
        return true;
    }
    }
    return fail(error, QStringLiteral("unsupported format"));
}

QImage ChartExporter::renderImage(ChartView& view, const Options& options) {
    const QSize size = sizeFor(view, options);
    const ExportLayout layout(view, size, options);
    return view.plot()
        ->toPixmap(size.width(), size.height(), options.scale > 0 ? options.scale : 1.0)
        .toImage();
}

void ChartExporter::copyToClipboard(ChartView& view, const Options& options) {
    auto* data = new QMimeData;
    data->setImageData(renderImage(view, options));
    data->setText(view.dataTable().toCsv());
    QApplication::clipboard()->setMimeData(data);
}

bool ChartExporter::exportAll(const QList<ChartView*>& views, const QString& folder,
                              const QStringList& extensions, const Options& options, QString* error,
                              QStringList* written) {
    if (!QDir().mkpath(folder))
        return fail(error, QStringLiteral("cannot create the folder %1").arg(folder));
    const QStringList types = extensions.isEmpty() ? ChartExporter::extensions() : extensions;
    for (ChartView* view : views) {
        if (!view)
            continue;
        for (const QString& type : types) {
            const QString path =
                QDir(folder).filePath(view->viewName() + QLatin1Char('.') + type.toLower());
            if (!exportView(*view, path, options, error))
                return false;
            if (written) {
                written->push_back(path);
                if (options.context && formatOf(path) == Format::Csv)
                    written->push_back(sidecarPath(path));
            }
        }
    }
    return true;
}

} // namespace concorde::ui
