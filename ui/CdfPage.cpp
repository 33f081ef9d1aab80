#include "CdfPage.h"

#include "CdfView.h"
#include "ExplorerBounds.h"
#include "Session.h"
#include "explore/BoundResources.h"

namespace concorde::ui {

CdfPage::CdfPage(Session& session, ExplorerBounds* bounds, QWidget* parent)
    : ChartPage(session, bounds, parent) {
    setObjectName(QStringLiteral("view_cdfs"));
    view_ = new CdfView(this);
    setView(view_);
    followSeries();
}

void CdfPage::refresh() {
    const auto& series = bounds().series();
    if (!series) {
        view_->clear();
        setTitle(bounds().isLoading() ? tr("Loading the per-window bounds…")
                                      : tr("No bounds for the selection"));
        return;
    }
    view_->setSeries(series);
    const int binding = view_->highlightedResource();
    const auto& names = BoundResources::labels();
    setTitle(tr("Throughput CDFs of %1 — binding resource: %2")
                 .arg(QString::fromStdString(series->label()),
                      binding >= 0 && std::size_t(binding) < names.size()
                          ? QString::fromStdString(names[std::size_t(binding)])
                          : tr("none")));
}

} // namespace concorde::ui
