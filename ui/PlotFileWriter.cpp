#include "PlotFileWriter.h"

#include <QFileInfo>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace concorde::ui {

std::optional<PlotFileWriter::Format> PlotFileWriter::formatOf(const QString& path) {
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

QString PlotFileWriter::extensionList() {
    return QStringLiteral(".png, .svg, .pdf or .csv");
}

QString PlotFileWriter::writePlot(QCustomPlot& plot, const QString& path, Format format, QSize size,
                                  double scale) {
    bool ok = false;
    switch (format) {
    case Format::Png:
        ok = plot.savePng(path, size.width(), size.height(), scale);
        break;
    case Format::Pdf:
        ok = plot.savePdf(path, size.width(), size.height(), QCP::epAllowCosmetic,
                          QStringLiteral("Concorde Explorer"), plot.objectName());
        break;
    case Format::Svg: {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(plot.objectName());
        svg.setDescription(QStringLiteral("Concorde Explorer chart"));
        QCPPainter painter;
        if (painter.begin(&svg)) {
            plot.toPainter(&painter, size.width(), size.height());
            ok = painter.end();
        }
        ok = ok && QFileInfo(path).size() > 0;
        break;
    }
    case Format::Csv:
        return QStringLiteral("a plot cannot be written as CSV; write its data with writeText");
    }
    return ok ? QString() : QStringLiteral("cannot write %1").arg(path);
}

QString PlotFileWriter::writeText(const QString& text, const QString& path) {
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace concorde::ui
