#pragma once

#include <QString>

namespace concorde::ui {

/// What each column of a view's CSV export means, in one sentence: what the FILE.csv.json beside
/// a CSV export lists (ChartExportContext::sidecarJson). The README's export section gives the
/// same per view; keep them in step.
class ChartColumnGuide {
public:
    /// The description of `column` in the CSV of view `view` ("overview", "timeseries"...);
    /// empty for a column this guide does not know.
    static QString describe(const QString& view, const QString& column);
};

} // namespace concorde::ui
