#pragma once

#include "ChartPage.h"

class QCheckBox;

namespace concorde::ui {

class SensitivityView;

/// The sensitivity-ranking tab (issue 18): the tornado chart of SensitivityRanking at the
/// sliders' configuration, for the selected program or, with "All programs" ticked, the
/// geometric mean over every program. It follows the sliders and the program selection; the
/// ranking is one batched prediction per region (milliseconds), computed when the page shows.
class SensitivityPage : public ChartPage {
    Q_OBJECT

public:
    explicit SensitivityPage(Session& session, ExplorerBounds* bounds = nullptr,
                             QWidget* parent = nullptr);
    SensitivityView* view() const { return view_; }
    QCheckBox* allProgramsBox() const { return allPrograms_; }
    void refresh() override;

private:
    SensitivityView* view_ = nullptr;
    QCheckBox* allPrograms_ = nullptr;
};

} // namespace concorde::ui
