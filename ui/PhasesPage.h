#pragma once

#include "ChartPage.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace concorde::ui {

class PhasesView;

/// The phase drill-down tab: the selected program's regions along its execution, coloured by
/// phase (stored in the database, else clustered in memory with DatabasePhases — the database
/// is never written), with the predicted CPI at the sliders' configuration. Clicking a region
/// drills every page into it (ExplorerBounds::drillInto); Back returns to the whole program.
class PhasesPage : public ChartPage {
    Q_OBJECT

public:
    explicit PhasesPage(Session& session, ExplorerBounds* bounds = nullptr,
                        QWidget* parent = nullptr);
    PhasesView* view() const { return view_; }
    void refresh() override;

private:
    void activate(int entry);
    /// Phases computed for `program` (cached per database), empty when clustering failed.
    const std::vector<std::pair<std::int64_t, std::int64_t>>&
    computedPhases(const std::string& program);

    PhasesView* view_ = nullptr;
    const void* phasesFor_ = nullptr; ///< the bounds the cache belongs to
    std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>> phases_;
};

} // namespace concorde::ui
