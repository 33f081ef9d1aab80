#pragma once

#include "BackgroundTask.h"
#include "ChartPage.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace concorde {
class ExplorerModel;
}

namespace concorde::ui {

class PhasesView;

/// The phase drill-down tab: the selected program's regions along its execution, coloured by
/// phase (stored in the database, else clustered in memory with DatabasePhases — the database
/// is never written), with the predicted CPI at the sliders' configuration. Clicking a region
/// drills every page into it (ExplorerBounds::drillInto); Back returns to the whole program.
///
/// Clustering a program takes about half a second, so in a window (pages sharing their
/// ExplorerBounds) it runs in a BackgroundTask (Coalesce mode: a clustering that runs finishes
/// and is kept, and only the latest program asked for meanwhile waits behind it), through a
/// read-only connection of its own: meanwhile the regions are shown in one neutral colour and the
/// title says so, and the page refreshes when the phases arrive. Results are kept per program for
/// the database they were computed from; a new database cancels the clustering on its way. A page
/// that loads its own bounds on the calling thread (the headless export) clusters there too.
class PhasesPage : public ChartPage {
    Q_OBJECT

public:
    explicit PhasesPage(Session& session, ExplorerBounds* bounds = nullptr,
                        QWidget* parent = nullptr);
    PhasesView* view() const { return view_; }
    void refresh() override;
    /// Whether the phases of the selected program are being clustered in the background.
    bool isClustering() const;

protected:
    /// Clusters the selected program now if that is still running in the background, so an
    /// export shows its phases.
    void completeBackgroundWork() override;

private:
    /// (region id, phase) pairs, as ProgramTimeline::setPhases takes them.
    using RegionPhases = std::vector<std::pair<std::int64_t, std::int64_t>>;
    using DatabaseRef = std::weak_ptr<const ExplorerModel>;

    void activate(int entry);
    /// The clustered phases of `program` in the open database (empty when clustering failed), or
    /// nullptr while they are being computed in the background (started here when needed).
    const RegionPhases* clusteredPhases(const std::string& program);
    void startClustering(const std::string& program);
    void finishClustering(const std::string& program, RegionPhases phases);
    /// Forgets the results of a database that is no longer the session's.
    void followDatabase();
    /// Clusters `program` (any thread); empty on failure.
    static RegionPhases cluster(const ExplorerModel& explorer, const std::string& program);

    PhasesView* view_ = nullptr;
    bool clusterInBackground_ = true;
    DatabaseRef phasesFor_;                      ///< the database the two members below belong to
    std::map<std::string, RegionPhases> phases_; ///< finished, per program
    std::set<std::string> clustering_;           ///< programs being clustered
    std::string waiting_; ///< the program waiting behind the running clustering, if any
    BackgroundTask clusterer_{BackgroundTask::Mode::Coalesce};
};

} // namespace concorde::ui
