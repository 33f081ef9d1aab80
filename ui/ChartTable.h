#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace concorde::ui {

/// The data a chart plots, as a table: what "export CSV" writes (every view provides one through
/// ChartView::dataTable). Numbers are written with full precision so the CSV can be re-plotted.
struct ChartTable {
    QStringList header;
    QList<QStringList> rows;

    /// RFC 4180 CSV: fields with a comma, quote or line break are quoted, quotes doubled; lines
    /// end with "\n"; the header comes first.
    QString toCsv() const;
    /// One CSV field, quoted when needed.
    static QString csvField(const QString& text);
    /// A number for a table: up to 9 significant digits, "" for NaN.
    static QString number(double value);
};

} // namespace concorde::ui
