#include "ShapleyPage.h"

#include "ExplorerBounds.h"
#include "Session.h"
#include "ShapleyPanel.h"
#include "ShapleyView.h"
#include "explore/ShapleyJob.h"
#include "explore/ExplorerModel.h"

#include <exception>

namespace concorde::ui {

ShapleyPage::ShapleyPage(Session& session, std::vector<Preset> presets, ExplorerBounds* bounds,
                         QWidget* parent)
    : ChartPage(session, bounds, parent) {
    setObjectName(QStringLiteral("view_shapley"));
    panel_ = new ShapleyPanel(this);
    panel_->setObjectName(QStringLiteral("shapley_panel"));
    panel_->setPresets(presets);
    setView(panel_->view(), panel_);
    connect(&session, &Session::baselineChanged, this, [this] { refresh(); });
    connect(&session, &Session::databaseOpened, this, [this] { refresh(); });
    refresh();
}

ShapleyView* ShapleyPage::view() const {
    return panel_->view();
}

void ShapleyPage::refresh() {
    const ExplorerPtr& explorer = session().explorer();
    if (explorer.get() != explorer_) {
        explorer_ = explorer.get();
        panel_->setPredictor(
            explorer ? std::shared_ptr<const DatabasePredictor>(explorer, &explorer->predictor())
                     : nullptr);
    }
    panel_->setCurrentConfigs(session().baseline(), session().config());
    // The drilled region, as the report labels it (its region index).
    QString program, region;
    const int drilled = bounds().drilledRegion();
    if (drilled >= 0 && bounds().bounds()) {
        const DatabaseBounds::Region& r = bounds().bounds()->regions()[std::size_t(drilled)];
        program = QString::fromStdString(r.program);
        region = QString::number(r.regionIndex);
    }
    // Follow the drill-down only when it changes, so that a slider drag keeps the mode the user
    // picked in the panel.
    const QString drill = region.isEmpty() ? QString() : program + QLatin1Char('\n') + region;
    if (drill != shownDrill_) {
        shownDrill_ = drill;
        panel_->showRegion(program, region);
    }
    setTitle(region.isEmpty()
                 ? tr("Shapley attribution: baseline → target, per program")
                 : tr("Shapley attribution of %1, beside the whole program for context")
                       .arg(bounds().selectionLabel()));
}

bool ShapleyPage::computeNow(QString* error) {
    const ExplorerPtr& explorer = session().explorer();
    if (!explorer) {
        if (error)
            *error = tr("no database open");
        return false;
    }
    try {
        ShapleyJob::Request request;
        request.predictor =
            std::shared_ptr<const DatabasePredictor>(explorer, &explorer->predictor());
        request.baseline = explorer->snap(session().baseline());
        request.target = explorer->snap(session().config());
        view()->setConfigNames(tr("baseline"), tr("target"));
        view()->setReport(ShapleyJob::run(request));
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

} // namespace concorde::ui
