#include "PhasesPage.h"

#include "ExplorerBounds.h"
#include "PhasesView.h"
#include "Session.h"
#include "explore/ProgramTimeline.h"
#include "store/DatabasePhases.h"
#include "store/ExplorerModel.h"
#include "store/FeatureDatabase.h"

#include <exception>

namespace concorde::ui {

PhasesPage::PhasesPage(Session& session, ExplorerBounds* bounds, QWidget* parent)
    : ChartPage(session, bounds, parent) {
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
    if (!timeline.hasPhases()) {
        const auto& phases = computedPhases(program);
        if (!phases.empty()) {
            timeline.setPhases(phases);
            computed = true;
        }
    }
    int selected = -1;
    for (std::size_t i = 0; i < timeline.entries.size(); ++i)
        if (int(timeline.entries[i].region) == bounds().drilledRegion())
            selected = int(i);
    view_->setTimeline(std::move(timeline));
    view_->setSelectedRegion(selected);
    setTitle(tr("Regions of %1 by phase%2 — click a region to drill into it")
                 .arg(session().program(),
                      computed ? tr(" (phases clustered here, not stored)") : QString()));
}

void PhasesPage::activate(int entry) {
    const auto& entries = view_->timeline().entries;
    if (entry < 0 || std::size_t(entry) >= entries.size())
        return;
    bounds().drillInto(int(entries[std::size_t(entry)].region));
}

const std::vector<std::pair<std::int64_t, std::int64_t>>&
PhasesPage::computedPhases(const std::string& program) {
    if (phasesFor_ != bounds().bounds().get()) {
        phases_.clear();
        phasesFor_ = bounds().bounds().get();
    }
    auto found = phases_.find(program);
    if (found != phases_.end())
        return found->second;
    std::vector<std::pair<std::int64_t, std::int64_t>> phases;
    try {
        const DatabasePhases::Program result =
            session().explorer()->withDatabase([&](FeatureDatabase& database) {
                return DatabasePhases::compute(database, program, DatabasePhases::Options{});
            });
        for (std::size_t i = 0; i < result.regionIds.size() && i < result.clusters.phaseOf.size();
             ++i)
            phases.emplace_back(result.regionIds[i], std::int64_t(result.clusters.phaseOf[i]));
    } catch (const std::exception&) {
        phases.clear();
    }
    return phases_.emplace(program, std::move(phases)).first->second;
}

} // namespace concorde::ui
