#pragma once

#include "ChartPage.h"

namespace concorde::ui {

class CdfView;

/// The throughput CDF tab: the CdfView of the selected program (or the region drilled into) at
/// the sliders' configuration, with its binding resource named in the title.
class CdfPage : public ChartPage {
    Q_OBJECT

public:
    explicit CdfPage(Session& session, ExplorerBounds* bounds = nullptr, QWidget* parent = nullptr);
    CdfView* view() const { return view_; }
    void refresh() override;

private:
    CdfView* view_ = nullptr;
};

} // namespace concorde::ui
