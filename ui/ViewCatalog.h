#pragma once

#include "params/Preset.h"

#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

namespace concorde {
class ParameterGrid;
}

namespace concorde::ui {

class ExplorerBounds;
class Session;
class ViewPage;

/// What a view is built on.
struct ViewContext {
    Session& session;
    /// The per-window bounds the pages of a window share. nullptr: the page loads its own on the
    /// calling thread and does its work there (the headless export).
    ExplorerBounds* bounds = nullptr;
    /// The presets offered as Shapley baseline and target.
    std::vector<Preset> presets;
};

/// Where a view predicts, for its headless export to precompute only that.
struct PredictionScope {
    const ParameterGrid& grid;  ///< the database's grid
    const CoreConfig& target;   ///< on the grid
    const CoreConfig& baseline; ///< on the grid
    ParamId swept;              ///< the sweep's parameter
};

/// One view of the explorer: a tab of the window and a name for the headless export.
struct ViewEntry {
    QString id;          ///< on the command line and in exported file names: "overview", "cdf"...
    QString title;       ///< the tab's title
    QString description; ///< one line for --help
    /// Builds the view's page (the caller owns it). The page is the export interface: its
    /// chartView() is what every export writes, after ensureCurrent().
    std::function<ViewPage*(const ViewContext& context)> create;
    /// The configurations the view predicts besides the target, the baseline and mixes of their
    /// values (Shapley's coalitions): a sweep's values, a ranking's steps. The headless export
    /// precomputes predictions for the grid combinations of all these values only
    /// (ExplorerModel::open). Unset: nothing besides.
    std::function<std::vector<CoreConfig>(const PredictionScope& scope)> alsoPredicts = {};
    /// Whether the view predicts anywhere on the grid, which the headless export then
    /// precomputes whole.
    bool predictsTheWholeGrid = false;
    /// Other names the headless export accepts ("compare" for "comparison").
    QStringList aliases = {};
};

/// The registry of the explorer's views, in tab order: the main window makes one tab per entry,
/// and `concorde-explorer --export ID` and `--help` know them by id. A new view is one entry in
/// standard().
class ViewCatalog {
public:
    /// Every view of the explorer: overview, cdf, timeseries, shapley, phases.
    static ViewCatalog standard();

    /// Adds `view`, replacing one of the same id.
    void add(ViewEntry view);
    /// The view of that id or alias; nullptr when none.
    const ViewEntry* find(const QString& id) const;
    /// The ids, in order.
    QStringList names() const;
    const std::vector<ViewEntry>& views() const { return views_; }

private:
    std::vector<ViewEntry> views_;
};

} // namespace concorde::ui
