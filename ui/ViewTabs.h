#pragma once

#include <QList>
#include <QStringList>
#include <QTabWidget>

namespace concorde::ui {

class Session;
class ViewCatalog;
struct ViewContext;
class ViewPage;

/// The explorer window's views: one tab per ViewCatalog entry, in catalog order, titled as the
/// entry. The current tab and the Session's view (the page's object name, which sessions save)
/// follow each other.
class ViewTabs : public QTabWidget {
    Q_OBJECT

public:
    /// Builds every view of `catalog` on `context`; the first tab is current.
    ViewTabs(const ViewCatalog& catalog, const ViewContext& context, QWidget* parent = nullptr);

    /// The pages, in tab order.
    const QList<ViewPage*>& pages() const { return pages_; }
    /// The page of the view with catalog id `id` (nullptr for an unknown id).
    ViewPage* page(const QString& id) const;
    /// The page of the current tab.
    ViewPage* currentPage() const;
    /// The catalog id of the current tab's view.
    QString currentId() const;
    /// Makes the view with catalog id `id` current; false for an unknown id.
    bool showView(const QString& id);

private:
    void followSessionView(const QString& objectName);

    Session& session_;
    QList<ViewPage*> pages_;
    QStringList ids_; ///< the catalog id of each page
};

} // namespace concorde::ui
