#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QCustomPlot;
class QWidget;

namespace concorde::ui {

class Session;

/// A view that can be rendered to a file by name (the headless --export mode, "export all for
/// review"): how to build it on a Session, which plot to render for PNG, SVG and PDF, and the
/// plotted data as CSV.
struct ExportableView {
    QString name;        ///< on the command line: "overview", "cdf", ...
    QString description; ///< one line for --help
    /// Builds the view on `session` (which already holds a prediction); the caller owns it.
    std::function<QWidget*(Session& session)> create;
    /// The plot inside a view built by `create`.
    std::function<QCustomPlot*(QWidget* view)> plot;
    /// The plotted data of a view built by `create`, as CSV with a header line.
    std::function<QString(QWidget* view)> csv;
};

/// The table of exportable views, looked up by name. standard() holds the views this build
/// has; each further view registers itself with one add() there.
class ViewCatalog {
public:
    /// Every view of the explorer that can be exported.
    static ViewCatalog standard();

    /// Adds `view`, replacing one of the same name.
    void add(ExportableView view);
    const ExportableView* find(const QString& name) const;
    QStringList names() const;
    const std::vector<ExportableView>& views() const { return views_; }

private:
    std::vector<ExportableView> views_;
};

} // namespace concorde::ui
