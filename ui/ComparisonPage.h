#pragma once

#include "ChartPage.h"
#include "params/Preset.h"

#include <vector>

class QPushButton;

namespace concorde::ui {

class ComparisonView;

/// The A/B tab (issue 18, item 3): the session's baseline (A) against its target (B, the
/// sliders) for every program, from the live prediction, each named by the preset it equals
/// (else "the sliders" / "a custom baseline"). Choose A and B with the Presets menu (apply to
/// target or baseline) or the sliders; "Shapley breakdown of the difference" opens the Shapley
/// tab, which attributes exactly this A → B change.
class ComparisonPage : public ChartPage {
    Q_OBJECT

public:
    ComparisonPage(Session& session, std::vector<Preset> presets, ExplorerBounds* bounds = nullptr,
                   QWidget* parent = nullptr);
    ComparisonView* view() const { return view_; }
    QPushButton* shapleyButton() const { return shapley_; }
    void refresh() override;
    /// The name shown for `config`: the first preset it equals, else `fallback`.
    QString nameOf(const CoreConfig& config, const QString& fallback) const;

private:
    std::vector<Preset> presets_;
    ComparisonView* view_ = nullptr;
    QPushButton* shapley_ = nullptr;
};

} // namespace concorde::ui
