#include "ViewCatalog.h"

#include "OverviewView.h"

namespace concorde::ui {

ViewCatalog ViewCatalog::standard() {
    ViewCatalog catalog;
    catalog.add({QStringLiteral("overview"),
                 QStringLiteral("every program's CPI, target vs baseline"),
                 [](Session& session) -> QWidget* { return new OverviewView(session); },
                 [](QWidget* view) { return static_cast<OverviewView*>(view)->plot(); },
                 [](QWidget* view) { return static_cast<OverviewView*>(view)->csv(); }});
    return catalog;
}

void ViewCatalog::add(ExportableView view) {
    for (ExportableView& existing : views_)
        if (existing.name == view.name) {
            existing = std::move(view);
            return;
        }
    views_.push_back(std::move(view));
}

const ExportableView* ViewCatalog::find(const QString& name) const {
    for (const ExportableView& view : views_)
        if (view.name == name)
            return &view;
    return nullptr;
}

QStringList ViewCatalog::names() const {
    QStringList names;
    for (const ExportableView& view : views_)
        names << view.name;
    return names;
}

} // namespace concorde::ui
