#include "AboutText.h"

#include "Session.h"
#include "explore/ExplorerModel.h"
#include "store/FeatureDatabase.h"

#include <QFileInfo>
#include <QLocale>

namespace concorde::ui {
namespace {

QString htmlEscaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QString row(const QString& name, const QString& value) {
    return QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>").arg(name, value);
}

} // namespace

QString AboutText::html(const Session& session) {
    QString text =
        QObject::tr("<h3>Concorde Explorer %1</h3>"
                    "<p>Interactive CPU microarchitecture exploration: drag twenty core "
                    "parameters and see the predicted CPI of real programs, which resource "
                    "bounds each window of instructions, and the Shapley attribution of the CPI "
                    "change between a baseline and a target core.</p>"
                    "<p>Predictions follow the Concorde method (compositional analytical-ML "
                    "fusion): per-resource analytical bounds on traced programs, combined by a "
                    "small neural network trained against a cycle-level reference simulator.</p>")
            .arg(QStringLiteral(CONCORDE_VERSION));
    const ExplorerPtr& explorer = session.explorer();
    if (!explorer)
        return text + QObject::tr("<p>No database is open: File ▸ Open database….</p>");

    const QFileInfo file(session.databasePath());
    const QLocale locale;
    std::size_t regions = 0;
    for (const std::string& program : explorer->programs())
        regions += explorer->regionCount(program);
    // Provenance as the database records it (short reads on the shared connection).
    const auto meta = [&](const char* key) {
        return explorer->withDatabase([&](FeatureDatabase& db) { return db.meta(key); })
            .value_or(std::string());
    };
    const std::string createdBy = meta("created_by");
    const std::string windowSize = meta("window_size");
    text += QObject::tr("<h4>Database</h4><table>");
    text += row(QObject::tr("File"), file.absoluteFilePath().toHtmlEscaped());
    text += row(QObject::tr("Size, date"),
                QStringLiteral("%1, %2").arg(
                    locale.formattedDataSize(file.size()),
                    file.lastModified().toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
    if (!createdBy.empty())
        text += row(QObject::tr("Built by"), htmlEscaped(createdBy));
    text += row(QObject::tr("Programs"),
                QObject::tr("%1 (%2 regions)").arg(explorer->programs().size()).arg(regions));
    if (!windowSize.empty())
        text +=
            row(QObject::tr("Window"), QObject::tr("%1 instructions").arg(htmlEscaped(windowSize)));
    text += QStringLiteral("</table>");
    text += QObject::tr("<h4>Model</h4><table>");
    text += row(QObject::tr("Name"), htmlEscaped(explorer->model().name));
    const ModelAccuracy& accuracy = explorer->accuracy();
    text += row(QObject::tr("Measured accuracy"), htmlEscaped(accuracy.summary()));
    // Per preset on programs no step of the model's making saw, beside plain physics: where the
    // bound is the better answer, the user should know.
    QStringList presets;
    for (const std::string& line : accuracy.neverSeenPresetLines())
        presets << htmlEscaped(line);
    if (!presets.isEmpty())
        text += row(QObject::tr("Never-seen programs, per preset"),
                    presets.join(QStringLiteral("<br>")));
    text += QStringLiteral("</table>");
    text += QObject::tr("<p>The accuracy is the model's mean relative CPI error against the "
                        "reference simulator on regions and programs it was not trained on "
                        "(<tt>concorde evaluate</tt>); the Validation tab shows every label.</p>");
    return text;
}

} // namespace concorde::ui
