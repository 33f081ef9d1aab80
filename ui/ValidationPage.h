#pragma once

#include "ChartPage.h"

#include <memory>

namespace concorde {
class ExplorerModel;
}

namespace concorde::ui {

class ValidationView;

/// The trust tab (issue 18, item 4): ModelValidation of the open database in a ValidationView.
/// Labels do not change with the sliders, so it is computed once per database, when the tab is
/// first shown (a few tens of milliseconds for the shipped database's labels).
class ValidationPage : public ChartPage {
    Q_OBJECT

public:
    explicit ValidationPage(Session& session, ExplorerBounds* bounds = nullptr,
                            QWidget* parent = nullptr);
    ValidationView* view() const { return view_; }
    void refresh() override;

private:
    ValidationView* view_ = nullptr;
    std::weak_ptr<const ExplorerModel> shown_; ///< the database the view shows
};

} // namespace concorde::ui
