#pragma once

#include "ChartTable.h"
#include "params/CoreConfig.h"
#include "params/Preset.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <vector>

namespace concorde::ui {

class ChartView;
class Session;

/// What an exported chart says about itself so that it can be read without the explorer around
/// it (a slide, a review document): a title line naming the view, its subject (the program, the
/// region drilled into, or "all programs"), the target and the baseline; a footer naming the
/// database, the model's measured accuracy and the date; and for a CSV export the same context,
/// with the full parameters and what every column means, in FILE.csv.json beside it.
///
/// Names: a configuration equal to a preset is named by it ("n1-like"); any other is "custom",
/// followed by the nearest preset (the one differing in the fewest parameters) and the parameters
/// that differ from it, e.g. "custom (n1-like with rob=256, lq=48)", at most four of them then
/// "and N more". The sidecar JSON always has every parameter.
class ChartExportContext {
public:
    QString program;   ///< the selected program (empty: none)
    QString selection; ///< the selection's label when a region is drilled into, else empty
    QString targetName;
    QString baselineName;
    CoreConfig target;
    CoreConfig baseline;
    QString databasePath;
    QString modelName;
    QString accuracy; ///< ModelAccuracy::summary(), as Help ▸ About shows it
    QDateTime created = QDateTime::currentDateTime();
    bool footer = true; ///< draw the footer (the CSV's JSON has the context regardless)

    /// The context of `session` now: its program, target and baseline named against `presets`
    /// and the session's saved presets, its database and the database model's accuracy.
    /// `selection`: what ExplorerBounds::selectionLabel() says when a region is drilled into.
    static ChartExportContext fromSession(const Session& session,
                                          const std::vector<Preset>& presets,
                                          const QString& selection = {});
    /// The name of `config` among `presets` (see the class comment).
    static QString configName(const CoreConfig& config, const std::vector<Preset>& presets);

    /// "all programs", the program, or the region drilled into, as `view` shows it.
    QString subjectOf(const ChartView& view) const;
    /// "Throughput CDFs · gzip · target: n1-like · baseline: little".
    QString titleLine(const ChartView& view) const;
    /// "Concorde Explorer 1.0 · default.sqlite · model error 4.0 % on unseen regions · 2025-06-01";
    /// empty when the footer is off.
    QString footerLine() const;
    /// The JSON written beside a CSV export of `view` (`table` is what the CSV holds): view,
    /// subject, program, target and baseline (names and every parameter), database, model and
    /// accuracy, date, title line, and the columns with their descriptions (ChartColumnGuide).
    QByteArray sidecarJson(const ChartView& view, const ChartTable& table) const;
};

} // namespace concorde::ui
