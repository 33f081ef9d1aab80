#include "ValidationPage.h"

#include "Session.h"
#include "ValidationView.h"
#include "explore/ExplorerModel.h"
#include "explore/ModelValidation.h"

#include <exception>

namespace concorde::ui {

ValidationPage::ValidationPage(Session& session, ExplorerBounds* bounds, QWidget* parent)
    : ChartPage(session, bounds, parent) {
    setObjectName(QStringLiteral("view_validation"));
    view_ = new ValidationView(this);
    setView(view_);
    refresh();
}

void ValidationPage::refresh() {
    const ExplorerPtr& explorer = session().explorer();
    if (!explorer) {
        shown_.reset();
        view_->setValidation({});
        setTitle(tr("No database open"));
        return;
    }
    // Same database as shown: the labels and the model have not changed.
    if (!shown_.owner_before(explorer) && !explorer.owner_before(shown_) && !shown_.expired())
        return;
    shown_ = explorer;
    try {
        view_->setValidation(ModelValidation::compute(*explorer));
        setTitle(tr("How far to trust the predictions: the model against the reference "
                    "simulator on every label of this database"));
    } catch (const std::exception& e) {
        view_->setValidation({});
        setTitle(tr("No validation: %1").arg(QString::fromUtf8(e.what())));
    }
}

} // namespace concorde::ui
