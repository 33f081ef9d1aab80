#pragma once

#include "BackgroundTask.h"
#include "explore/DatabaseBounds.h"
#include "explore/RegionBoundsSeries.h"
#include "params/CoreConfig.h"

#include <QObject>
#include <QString>
#include <memory>
#include <string>

namespace concorde::ui {

class Session;

/// The open database's per-window bounds (DatabaseBounds) for the CDF, timeseries and phase
/// pages, the region they are drilled into, and the bounds of that selection at the session's
/// target configuration. Loads in a BackgroundTask when the Session opens a database (loadNow()
/// on the calling thread for the headless export and tests), through read-only connections of
/// the loading threads' own, never the explorer's shared one; one instance is shared by the pages
/// of a window so the series are read once. A new database cancels a load still going.
///
/// The selection's series is computed off the UI thread, like the Session's predictions: a page
/// that needs it calls requestSeries(); while one computation runs further requests coalesce
/// into one more from the latest state (BackgroundTask::Mode::Coalesce), and each result arrives
/// as seriesReady(). A slider drag therefore never waits for the 64 regions of a program to be
/// merged on the UI thread.
class ExplorerBounds : public QObject {
    Q_OBJECT

public:
    /// What a series is computed for: the database's bounds, the (snapped) configuration, the
    /// program and the region drilled into (-1: the whole program).
    struct Selection {
        std::shared_ptr<const DatabaseBounds> bounds;
        CoreConfig config;
        std::string program;
        int region = -1;
        bool operator==(const Selection&) const = default;
    };

    explicit ExplorerBounds(Session& session, QObject* parent = nullptr);
    ~ExplorerBounds() override;

    Session& session() const { return session_; }
    /// Loads the open database's bounds on the calling thread (no-op without a database).
    /// Returns false with the message in `error` on failure. With `onlyProgram`, only that
    /// program's regions are read (a one-shot export of one program): regions keep their ids,
    /// but their indices are then no longer the predictor's, so nothing may drill into one.
    bool loadNow(QString* error = nullptr, const QString& onlyProgram = {});
    /// The loaded bounds (nullptr before loading finished or without a database).
    const std::shared_ptr<const DatabaseBounds>& bounds() const { return bounds_; }
    bool isLoading() const { return loader_.isRunning(); }

    /// The region drilled into (index into DatabaseBounds::regions()), -1: the whole program.
    int drilledRegion() const { return region_; }
    /// Drills into region `region` (-1: back to the whole program).
    void drillInto(int region);
    /// Back to the whole program.
    void back() { drillInto(-1); }
    /// "gzip" or "gzip region 3" for titles.
    QString selectionLabel() const;

    /// The selection now: the session's target configuration (snapped), program and region.
    Selection currentSelection() const;
    /// The bounds of `selection` computed on the calling thread; nullptr without bounds or for
    /// an unknown program, and for a configuration off the grid.
    static std::shared_ptr<const RegionBoundsSeries> computeSeries(const Selection& selection);
    /// The same, from `previous`, the series computed for `previousSelection` (any, or nullptr):
    /// a program's CDFs that did not change are reused.
    static std::shared_ptr<const RegionBoundsSeries>
    computeSeries(const Selection& selection, const Selection& previousSelection,
                  const RegionBoundsSeries* previous);

    /// The latest series computed (nullptr before the first, and when there is none for the
    /// selection); it may lag the sliders while the next is computed.
    const std::shared_ptr<const RegionBoundsSeries>& series() const { return series_; }
    /// What series() was computed for.
    const Selection& seriesSelection() const { return seriesSelection_; }
    /// True when series() is the current selection's (or there are no bounds to compute from).
    bool isSeriesCurrent() const;
    /// Computes the current selection's series on the worker thread unless series() is current
    /// or one is being computed (then one more follows it); seriesReady() when it arrives.
    void requestSeries();
    /// Makes series() current on the calling thread (exports, pages outside a shown window);
    /// emits seriesReady() if it changed.
    void updateSeriesNow();
    bool isComputingSeries() const { return seriesTask_.isRunning(); }

signals:
    /// series() changed.
    void seriesReady();
    /// bounds() changed (loaded, or cleared for a new database).
    void boundsChanged();
    /// drilledRegion() changed.
    void selectionChanged();
    void loadFailed(const QString& message);

private:
    struct SeriesOutcome {
        Selection selection;
        std::shared_ptr<const RegionBoundsSeries> series;
    };

    void startLoading();
    void onLoaded(std::shared_ptr<const DatabaseBounds> bounds);
    /// Forgets the bounds, the drill-down and the series (a new database), cancelling a load.
    void clear();
    void onSeriesComputed(const SeriesOutcome& outcome);

    Session& session_;
    std::shared_ptr<const DatabaseBounds> bounds_;
    BackgroundTask loader_{BackgroundTask::Mode::Latest};
    int region_ = -1;

    // the selection's series
    BackgroundTask seriesTask_{BackgroundTask::Mode::Coalesce};
    std::shared_ptr<const RegionBoundsSeries> series_;
    Selection seriesSelection_;
};

} // namespace concorde::ui
