#include "ViewTabs.h"

#include "Session.h"
#include "ViewCatalog.h"
#include "ViewPage.h"

namespace concorde::ui {

ViewTabs::ViewTabs(const ViewCatalog& catalog, const ViewContext& context, QWidget* parent)
    : QTabWidget(parent), session_(context.session) {
    setObjectName(QStringLiteral("view_tabs"));
    setDocumentMode(true);
    for (const ViewEntry& entry : catalog.views()) {
        ViewPage* page = entry.create(context);
        pages_ << page;
        ids_ << entry.id;
        addTab(page, entry.title);
    }
    setCurrentIndex(0);
    connect(this, &QTabWidget::currentChanged, this, [this](int i) {
        if (i >= 0 && i < pages_.size())
            session_.setView(pages_[i]->objectName());
    });
    connect(&session_, &Session::viewChanged, this, &ViewTabs::followSessionView);
    if (ViewPage* first = currentPage())
        session_.setView(first->objectName());
}

ViewPage* ViewTabs::page(const QString& id) const {
    const qsizetype i = ids_.indexOf(id);
    return i < 0 ? nullptr : pages_[i];
}

ViewPage* ViewTabs::currentPage() const {
    const int i = currentIndex();
    return i >= 0 && i < pages_.size() ? pages_[i] : nullptr;
}

QString ViewTabs::currentId() const {
    const int i = currentIndex();
    return i >= 0 && i < ids_.size() ? ids_[i] : QString();
}

bool ViewTabs::showView(const QString& id) {
    ViewPage* shown = page(id);
    if (shown)
        setCurrentWidget(shown);
    return shown != nullptr;
}

void ViewTabs::followSessionView(const QString& objectName) {
    for (ViewPage* page : pages_)
        if (page->objectName() == objectName)
            setCurrentWidget(page);
}

} // namespace concorde::ui
