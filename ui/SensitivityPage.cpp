#include "SensitivityPage.h"

#include "SensitivityView.h"
#include "Session.h"
#include "explore/ExplorerModel.h"
#include "explore/SensitivityRanking.h"

#include <QCheckBox>
#include <QVBoxLayout>
#include <exception>

namespace concorde::ui {

SensitivityPage::SensitivityPage(Session& session, ExplorerBounds* bounds, QWidget* parent)
    : ChartPage(session, bounds, parent) {
    setObjectName(QStringLiteral("view_sensitivity"));
    view_ = new SensitivityView(this);
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    allPrograms_ = new QCheckBox(tr("All programs (geometric mean)"), content);
    allPrograms_->setObjectName(QStringLiteral("sensitivity_all_programs"));
    layout->addWidget(allPrograms_);
    // Twenty rows need more height than a projector at 1024x768 leaves the chart: the chart
    // then grows to show every name legibly and the page scrolls (largest effects on top).
    layout->addWidget(
        ChartView::rowScrollArea(view_, QStringLiteral("sensitivity_scroll"), content), 1);
    setView(view_, content);
    connect(allPrograms_, &QCheckBox::toggled, this, [this] { refresh(); });
    // A click on a row opens that parameter's sweep.
    connect(view_, &SensitivityView::parameterActivated, this,
            [this](int parameter) { this->session().sweep(static_cast<ParamId>(parameter)); });
    followPredictions();
    refresh();
}

void SensitivityPage::refresh() {
    const ExplorerPtr& explorer = session().explorer();
    if (!explorer) {
        view_->setRanking({}, {});
        setTitle(tr("No database open"));
        return;
    }
    const bool all = allPrograms_->isChecked();
    const QString subject = all ? tr("the geometric mean of every program") : session().program();
    try {
        view_->setRanking(SensitivityRanking::rank(*explorer, session().config(),
                                                   all ? std::string() : subject.toStdString()),
                          subject);
        setTitle(tr("Sensitivity of %1 at the sliders' configuration: every parameter one grid "
                    "step down and up, largest change first")
                     .arg(subject));
    } catch (const std::exception& e) {
        view_->setRanking({}, {});
        setTitle(tr("No sensitivity ranking: %1").arg(QString::fromUtf8(e.what())));
    }
}

} // namespace concorde::ui
