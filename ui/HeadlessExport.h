#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

class QTextStream;

namespace concorde {
class CoreConfig;
class PresetLibrary;
} // namespace concorde

namespace concorde::ui {

class ViewCatalog;

/// The headless export mode of concorde-explorer, for scripts and CI:
///
///     concorde-explorer [DB] --export VIEW [--program P] [--preset P | --set k=v ...]
///                       [--baseline P] [--param KEY] [--theme light|dark] [--projector]
///                       [--size WxH] [--no-footer] -o FILE.png|.svg|.pdf|.csv
///
/// opens the database on the calling thread, predicts for the configuration (a preset, then
/// the --set assignments in order; by default n1-like) against the baseline (a preset, by default
/// little), builds the
/// view from the ViewCatalog without showing it, and writes the chart (PNG, SVG, PDF) or its
/// data (CSV), as the window's File ▸ Export does: the chart with its title line and footer
/// (ChartExportContext; --no-footer drops the footer), a CSV with FILE.csv.json beside it.
/// Needs a QApplication; no display (QT_QPA_PLATFORM=offscreen).
class HeadlessExport {
public:
    struct Request {
        QString database; ///< the database to open (the caller resolves the default)
        QString view;
        QString program;         ///< empty: the database's first program
        QString preset;          ///< empty: Session::defaultTarget ("n1-like")
        QStringList assignments; ///< "key=value", applied after the preset
        QString baselinePreset;  ///< empty: Session::defaultBaseline ("little")
        QString sweepParameter;  ///< the sweep's parameter key (--param); empty: the default
        QString output;
        QString theme = QStringLiteral("light");
        bool projector = false;
        QSize size{1280, 800};
        bool footer = true; ///< database, model accuracy and date under the chart
    };

    /// Runs one export. Returns the exit code — 0 written; 2 for a usage or input error (unknown
    /// view, program, preset or parameter, bad value, unsupported extension, unreadable
    /// database); 1 when the file cannot be written — and writes one line per problem to `err`.
    static int run(const Request& request, const PresetLibrary& presets, const ViewCatalog& catalog,
                   QTextStream& err);
    /// The target (preset, then assignments) and baseline of `request`; false with the reason
    /// in `error` for an unknown preset or parameter or a bad value. Also used to start the
    /// interactive explorer with --preset / --set / --baseline.
    static bool configure(const Request& request, const PresetLibrary& presets, CoreConfig& target,
                          CoreConfig& baseline, QString* error);
    /// Parses "1280x800"; an invalid QSize on a malformed value.
    static QSize parseSize(const QString& text);
};

} // namespace concorde::ui
