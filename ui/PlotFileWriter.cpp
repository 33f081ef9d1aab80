#include "PlotFileWriter.h"

#include "ChartExporter.h"
#include "ChartTable.h"

#include <QFileInfo>
#include <QSaveFile>
#include <qcustomplot.h>

namespace concorde::ui {

std::optional<PlotFileWriter::Format> PlotFileWriter::formatOf(const QString& path) {
    return ChartExporter::formatOf(path);
}

QString PlotFileWriter::extensionList() {
    return QStringLiteral(".png, .svg, .pdf or .csv");
}

QString PlotFileWriter::writePlot(QCustomPlot& plot, const QString& path, Format format, QSize size,
                                  double scale) {
    // One file-writing path for every chart: ChartExporter (atomic writes, checked targets).
    if (format == Format::Csv)
        return QStringLiteral("a plot cannot be written as CSV; write its data with writeText");
    ChartExporter::Options options;
    options.size = size;
    options.scale = scale;
    QString error;
    if (!ChartExporter::exportPlot(plot, ChartTable{}, path, options, &error))
        return error.isEmpty() ? QStringLiteral("cannot write %1").arg(path) : error;
    return {};
}

QString PlotFileWriter::writeText(const QString& text, const QString& path) {
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace concorde::ui
