#pragma once

#include "ChartPage.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace concorde {
class ExplorerModel;
class ReferenceIpcCache;
} // namespace concorde

namespace concorde::ui {

class TimeseriesView;

/// The bound timeseries tab: the TimeseriesView of the selected program (its regions end to end)
/// or the region drilled into, at the sliders' configuration, with the reference simulator's
/// per-window IPC overlaid where the database has labels. The labels are read from the database
/// once per region and open database, so a slider step does no SQLite I/O.
class TimeseriesPage : public ChartPage {
    Q_OBJECT

public:
    explicit TimeseriesPage(Session& session, ExplorerBounds* bounds = nullptr,
                            QWidget* parent = nullptr);
    ~TimeseriesPage() override;
    TimeseriesView* view() const { return view_; }
    void refresh() override;

private:
    /// The labels of the open database with those of `regionIds` loaded (read on first use);
    /// nullptr without a database.
    const ReferenceIpcCache* referenceLabels(const std::vector<std::int64_t>& regionIds);

    TimeseriesView* view_ = nullptr;
    std::unique_ptr<ReferenceIpcCache> reference_;
    std::weak_ptr<const ExplorerModel> referenceFor_; ///< the database reference_ was read from
};

} // namespace concorde::ui
