#pragma once

#include "ChartPage.h"
#include "params/Preset.h"

#include <vector>

namespace concorde::ui {

class ShapleyPanel;
class ShapleyView;

/// The Shapley tab: a ShapleyPanel fed with the session's model, the presets, and the session's
/// baseline and current sliders as choices for baseline and target. Drilling into a region (the
/// phases tab) shows that region's attribution beside its whole program's; Back shows every
/// program again.
class ShapleyPage : public ChartPage {
    Q_OBJECT

public:
    ShapleyPage(Session& session, std::vector<Preset> presets, ExplorerBounds* bounds = nullptr,
                QWidget* parent = nullptr);
    ShapleyPanel* panel() const { return panel_; }
    ShapleyView* view() const;
    void refresh() override;
    /// Attributes the session's baseline → target on the calling thread and shows the report
    /// (the headless export). Returns false with a message on failure.
    bool computeNow(QString* error = nullptr);

private:
    ShapleyPanel* panel_ = nullptr;
    const void* explorer_ = nullptr; ///< the model the panel was given
    QString shownDrill_;             ///< the drilled region shown ("program\nregion"), or empty
};

} // namespace concorde::ui
