#include "ComparisonPage.h"

#include "ComparisonView.h"
#include "Session.h"

#include <QHBoxLayout>
#include <QPushButton>
#include <QVBoxLayout>

namespace concorde::ui {

ComparisonPage::ComparisonPage(Session& session, std::vector<Preset> presets,
                               ExplorerBounds* bounds, QWidget* parent)
    : ChartPage(session, bounds, parent), presets_(std::move(presets)) {
    setObjectName(QStringLiteral("view_comparison"));
    view_ = new ComparisonView(this);
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    shapley_ = new QPushButton(tr("Shapley breakdown of the difference ▸"), content);
    shapley_->setObjectName(QStringLiteral("comparison_shapley"));
    row->addWidget(shapley_);
    row->addStretch(1);
    layout->addLayout(row);
    // Forty-seven programs need more height than a 1280x800 window leaves the chart: the chart
    // then grows until every program is named, and the page scrolls under the button row.
    layout->addWidget(ChartView::rowScrollArea(view_, QStringLiteral("comparison_scroll"), content),
                      1);
    setView(view_, content);
    connect(shapley_, &QPushButton::clicked, this,
            [this] { this->session().setView(QStringLiteral("view_shapley")); });
    connect(&session, &Session::baselineChanged, this, [this] { refresh(); });
    connect(&session, &Session::savedPresetsChanged, this, [this] { refresh(); });
    followPredictions();
    refresh();
}

QString ComparisonPage::nameOf(const CoreConfig& config, const QString& fallback) const {
    const std::string name = session().presetName(presets_, config);
    return name.empty() ? fallback : QString::fromStdString(name);
}

void ComparisonPage::refresh() {
    const QString a = nameOf(session().baseline(), tr("a custom baseline"));
    const QString b = nameOf(session().config(), tr("the sliders"));
    view_->setComparison(session().prediction(), a, b);
    setTitle(session().prediction()
                 ? tr("A/B: B = %1 (the target) against A = %2 (the baseline) for every "
                      "program; choose them with the sliders and the Presets menu")
                       .arg(b, a)
                 : tr("No prediction yet"));
}

} // namespace concorde::ui
