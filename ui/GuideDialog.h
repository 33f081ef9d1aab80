#pragma once

#include <QDialog>

namespace concorde::ui {

class ViewCatalog;

/// Help ▸ Guide: how to read the explorer, a few lines per view (what a bound is, what "binds"
/// means, how to read the Shapley bars and the bands), in a window that stays open beside the
/// charts (not modal).
class GuideDialog : public QDialog {
    Q_OBJECT

public:
    explicit GuideDialog(const ViewCatalog& catalog, QWidget* parent = nullptr);

    /// The guide: the ideas first, then a section per view of `catalog` (its tab title), in tab
    /// order; a view without its own text gets its catalog description.
    static QString html(const ViewCatalog& catalog);
};

} // namespace concorde::ui
