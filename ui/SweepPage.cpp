#include "SweepPage.h"

#include "Session.h"
#include "SweepView.h"
#include "explore/ExplorerModel.h"
#include "explore/ParameterSweep.h"
#include "params/ParameterSpace.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

namespace concorde::ui {

SweepPage::SweepPage(Session& session, ExplorerBounds* bounds, QWidget* parent)
    : ChartPage(session, bounds, parent) {
    setObjectName(QStringLiteral("view_sweep"));
    view_ = new SweepView(this);
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    auto* label = new QLabel(tr("&Parameter:"), content);
    parameter_ = new QComboBox(content);
    parameter_->setObjectName(QStringLiteral("sweep_parameter"));
    label->setBuddy(parameter_);
    for (const ParameterSpec& spec : ParameterSpace::all())
        parameter_->addItem(QString::fromStdString(spec.label), static_cast<int>(spec.id));
    row->addWidget(label);
    row->addWidget(parameter_);
    row->addStretch(1);
    layout->addLayout(row);
    layout->addWidget(view_, 1);
    setView(view_, content);
    connect(parameter_, &QComboBox::activated, this, [this](int index) {
        this->session().setSweptParameter(static_cast<ParamId>(parameter_->itemData(index).toInt()));
    });
    connect(&session, &Session::sweptParameterChanged, this, [this] {
        followSweptParameter();
        refresh();
    });
    followSweptParameter();
    followPredictions();
    refresh();
}

void SweepPage::followSweptParameter() {
    const int index = parameter_->findData(static_cast<int>(session().sweptParameter()));
    if (index >= 0)
        parameter_->setCurrentIndex(index);
}

void SweepPage::refresh() {
    const ExplorerPtr& explorer = session().explorer();
    if (!explorer) {
        view_->clear();
        setTitle(tr("No database open"));
        return;
    }
    const ParamId parameter = session().sweptParameter();
    const auto& programs = explorer->programs();
    const auto it = std::find(programs.begin(), programs.end(), session().program().toStdString());
    const std::optional<std::size_t> selected =
        it == programs.end() ? std::nullopt
                             : std::optional<std::size_t>(std::size_t(it - programs.begin()));
    try {
        view_->setSweep(ParameterSweep::compute(*explorer, session().config(), parameter,
                                                session().program().toStdString()),
                        selected);
        setTitle(tr("Sweep of %1 for every program, %2 highlighted; the dashed line is the "
                    "geometric mean")
                     .arg(QString::fromStdString(ParameterSpace::spec(parameter).label),
                          session().program()));
    } catch (const std::exception& e) {
        view_->clear();
        setTitle(tr("No sweep: %1").arg(QString::fromUtf8(e.what())));
    }
}

} // namespace concorde::ui
