#pragma once

#include "ChartPage.h"

class QComboBox;

namespace concorde::ui {

class SweepView;

/// The sweep tab (issue 18): ParameterSweep of the session's swept parameter at the sliders,
/// with a parameter picker above the chart. It follows the sliders, the program and the swept
/// parameter, which a slider's context menu and the sensitivity ranking also set
/// (Session::sweep). One batched prediction per region.
class SweepPage : public ChartPage {
    Q_OBJECT

public:
    explicit SweepPage(Session& session, ExplorerBounds* bounds = nullptr,
                       QWidget* parent = nullptr);
    SweepView* view() const { return view_; }
    QComboBox* parameterBox() const { return parameter_; }
    void refresh() override;

private:
    void followSweptParameter();

    SweepView* view_ = nullptr;
    QComboBox* parameter_ = nullptr;
};

} // namespace concorde::ui
