#pragma once

#include "explore/DatabaseBounds.h"
#include "explore/RegionBoundsSeries.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>

namespace concorde::ui {

class Session;

/// The open database's per-window bounds (DatabaseBounds) for the CDF, timeseries and phase
/// pages, and the region they are drilled into. Loads in the background when the Session opens a
/// database (loadNow() on the calling thread for the headless export and tests); one instance is
/// shared by the pages of a window so the series are read once.
class ExplorerBounds : public QObject {
    Q_OBJECT

public:
    explicit ExplorerBounds(Session& session, QObject* parent = nullptr);
    ~ExplorerBounds() override;

    Session& session() const { return session_; }
    /// Loads the open database's bounds on the calling thread (no-op without a database).
    /// Returns false with the message in `error` on failure.
    bool loadNow(QString* error = nullptr);
    /// The loaded bounds (nullptr before loading finished or without a database).
    const std::shared_ptr<const DatabaseBounds>& bounds() const { return bounds_; }
    bool isLoading() const { return loading_; }

    /// The region drilled into (index into DatabaseBounds::regions()), -1: the whole program.
    int drilledRegion() const { return region_; }
    /// Drills into region `region` (-1: back to the whole program).
    void drillInto(int region);
    /// Back to the whole program.
    void back() { drillInto(-1); }
    /// "gzip" or "gzip region 3" for titles.
    QString selectionLabel() const;

    /// The bounds of the selection (the program, or the drilled region) at the session's target
    /// configuration; nullptr without data. Errors (a configuration off the grid) give nullptr.
    std::shared_ptr<const RegionBoundsSeries> currentSeries() const;

signals:
    /// bounds() changed (loaded, or cleared for a new database).
    void boundsChanged();
    /// drilledRegion() changed.
    void selectionChanged();
    void loadFailed(const QString& message);

private:
    void startLoading();
    void onLoaded();

    Session& session_;
    std::shared_ptr<const DatabaseBounds> bounds_;
    QFutureWatcher<std::shared_ptr<const DatabaseBounds>> watcher_;
    bool loading_ = false;
    int region_ = -1;
};

} // namespace concorde::ui
