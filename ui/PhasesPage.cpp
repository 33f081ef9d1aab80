#include "PhasesPage.h"

#include "ExplorerBounds.h"
#include "PhasesView.h"
#include "Session.h"
#include "explore/ExplorerModel.h"
#include "explore/ProgramTimeline.h"
#include "pipeline/DatabasePhases.h"
#include "store/FeatureDatabase.h"

#include <exception>

namespace concorde::ui {
namespace {

/// Whether `ref` was taken from `database`. Compares ownership, not addresses: the weak pointer
/// keeps its control block, so a database opened later never compares equal, even at the
/// address of one since freed.
bool sameDatabase(const std::weak_ptr<const ExplorerModel>& ref, const ExplorerPtr& database) {
    return !ref.owner_before(database) && !database.owner_before(ref);
}

} // namespace

PhasesPage::PhasesPage(Session& session, ExplorerBounds* bounds, QWidget* parent)
    : ChartPage(session, bounds, parent), clusterInBackground_(bounds != nullptr) {
    setObjectName(QStringLiteral("view_phases"));
    view_ = new PhasesView(this);
    setView(view_);
    connect(view_, &PhasesView::regionActivated, this, &PhasesPage::activate);
    refresh();
}

void PhasesPage::refresh() {
    const auto& data = bounds().bounds();
    const ExplorerPtr& explorer = session().explorer();
    const std::string program = session().program().toStdString();
    bool known = false;
    if (data)
        for (const std::string& name : data->programs())
            known = known || name == program;
    if (!data || !explorer || !known) {
        view_->clear();
        setTitle(bounds().isLoading() ? tr("Loading the per-window bounds…")
                                      : tr("No regions for the selection"));
        return;
    }
    ProgramTimeline timeline;
    try {
        timeline = ProgramTimeline::build(*data, program, &explorer->predictor(),
                                          explorer->snap(session().config()));
    } catch (const std::exception&) {
        view_->clear();
        return;
    }
    bool computed = false;
    bool pending = false;
    if (!timeline.hasPhases()) {
        const RegionPhases* phases = clusteredPhases(program);
        pending = phases == nullptr;
        if (phases && !phases->empty()) {
            timeline.setPhases(*phases);
            computed = true;
        }
    }
    int selected = -1;
    for (std::size_t i = 0; i < timeline.entries.size(); ++i)
        if (int(timeline.entries[i].region) == bounds().drilledRegion())
            selected = int(i);
    // Each phase named by what sets it apart, at the configuration shown.
    std::vector<PhaseSummary> summaries =
        PhaseSummary::summarise(timeline, *data, explorer->snap(session().config()));
    view_->setTimeline(std::move(timeline), std::move(summaries));
    view_->setSelectedRegion(selected);
    if (pending)
        setTitle(tr("Regions of %1 — clustering phases… (click a region to drill into it)")
                     .arg(session().program()));
    else
        setTitle(tr("Regions of %1 by phase%2 — click a region to drill into it")
                     .arg(session().program(),
                          computed ? tr(" (phases clustered here, not stored)") : QString()));
}

bool PhasesPage::isClustering() const {
    return sameDatabase(phasesFor_, session().explorer()) &&
           clustering_.count(session().program().toStdString()) > 0;
}

void PhasesPage::completeBackgroundWork() {
    if (!isClustering())
        return;
    // The background job's result, when it arrives, is the same and replaces this one.
    const std::string program = session().program().toStdString();
    phases_[program] = cluster(*session().explorer(), program);
    clustering_.erase(program);
    refresh();
}

void PhasesPage::activate(int entry) {
    const auto& entries = view_->timeline().entries;
    if (entry < 0 || std::size_t(entry) >= entries.size())
        return;
    bounds().drillInto(int(entries[std::size_t(entry)].region));
}

void PhasesPage::followDatabase() {
    if (sameDatabase(phasesFor_, session().explorer()))
        return;
    phasesFor_ = session().explorer();
    phases_.clear();
    clustering_.clear();
    waiting_.clear();
    clusterer_.cancel(); // clustering the database before: its results are dropped
}

const PhasesPage::RegionPhases* PhasesPage::clusteredPhases(const std::string& program) {
    followDatabase();
    if (auto found = phases_.find(program); found != phases_.end())
        return &found->second;
    if (clusterInBackground_) {
        if (!clustering_.count(program))
            startClustering(program);
        return nullptr;
    }
    return &phases_.emplace(program, cluster(*session().explorer(), program)).first->second;
}

void PhasesPage::startClustering(const std::string& program) {
    if (clusterer_.hasWaiting())
        clustering_.erase(waiting_); // replaced by this request: clustered when asked again
    clustering_.insert(program);
    // The run holds the database until it ends; destroying the page waits for it.
    clusterer_.request(
        [explorer = session().explorer(), program](const JobControl&) {
            return cluster(*explorer, program);
        },
        [this, program](RegionPhases phases) { finishClustering(program, std::move(phases)); });
    waiting_ = clusterer_.hasWaiting() ? program : std::string();
}

void PhasesPage::finishClustering(const std::string& program, RegionPhases phases) {
    clustering_.erase(program);
    phases_[program] = std::move(phases);
    if (program == session().program().toStdString())
        refresh();
}

PhasesPage::RegionPhases PhasesPage::cluster(const ExplorerModel& explorer,
                                             const std::string& program) {
    // A read-only connection of its own: clustering through the shared one would hold its lock
    // for the whole run and stall the pages that read the database on the UI thread.
    RegionPhases phases;
    try {
        FeatureDatabase database = FeatureDatabase::openReadOnly(explorer.path());
        const DatabasePhases::Program result =
            DatabasePhases::compute(database, program, DatabasePhases::Options{});
        for (std::size_t i = 0; i < result.regionIds.size() && i < result.clusters.phaseOf.size();
             ++i)
            phases.emplace_back(result.regionIds[i], std::int64_t(result.clusters.phaseOf[i]));
    } catch (const std::exception&) {
        phases.clear();
    }
    return phases;
}

} // namespace concorde::ui
