#include "ChartTable.h"

#include <cmath>

namespace concorde::ui {

QString ChartTable::csvField(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString ChartTable::number(double value) {
    if (std::isnan(value))
        return {};
    return QString::number(value, 'g', 9);
}

QString ChartTable::toCsv() const {
    QString out;
    const auto line = [&out](const QStringList& fields) {
        for (int i = 0; i < fields.size(); ++i) {
            if (i > 0)
                out += QLatin1Char(',');
            out += csvField(fields[i]);
        }
        out += QLatin1Char('\n');
    };
    line(header);
    for (const QStringList& row : rows)
        line(row);
    return out;
}

} // namespace concorde::ui
