#include "GuideDialog.h"

#include "ViewCatalog.h"

#include <QDialogButtonBox>
#include <QMap>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace concorde::ui {
namespace {

/// What each view shows and how to read it, by catalog id.
QMap<QString, QString> viewTexts() {
    return {
        {QStringLiteral("overview"),
         QObject::tr("Every program's predicted CPI for the target (the sliders) and the "
                     "baseline, sorted by the baseline. Lower is faster. Click a row to select "
                     "that program for the other tabs.")},
        {QStringLiteral("comparison"),
         QObject::tr("The target's speed-up over the baseline per program (baseline CPI / "
                     "target CPI; right of 1 is faster), sorted, with the geometric mean on "
                     "top. Both sides are named by the preset they equal, or \"custom\".")},
        {QStringLiteral("cdf"),
         QObject::tr("For each resource, the distribution of its IPC bound over the program's "
                     "windows: a curve far to the right never limits; the thick curve is the "
                     "resource that binds most often, and the grey band is the minimum of all "
                     "bounds, the IPC the analytical models allow.")},
        {QStringLiteral("timeseries"),
         QObject::tr("Every resource's bound window by window (log scale), the minimum in "
                     "black, the simulated IPC dashed where the database has labels. The band "
                     "under the plot shows what binds: each pixel's column is split by the "
                     "share of its windows each resource binds, so its colours add up to the "
                     "binding_resource column of the CSV. Zoom in (wheel) to see single "
                     "windows.")},
        {QStringLiteral("shapley"),
         QObject::tr("How the CPI change from the baseline to the target splits over groups "
                     "of parameters. Each bar is one program (or region); segments right of "
                     "zero make the target slower, left of zero faster, and they add up to the "
                     "total change marked on the bar. Press Compute; it runs in the "
                     "background.")},
        {QStringLiteral("sensitivity"),
         QObject::tr("Every parameter moved one grid step down and one up from the sliders: "
                     "the predicted CPI change, largest first. Long bars are the parameters "
                     "that matter at this design point. Click a row for its sweep.")},
        {QStringLiteral("sweep"),
         QObject::tr("Every program's predicted CPI across the whole grid of one parameter, "
                     "the others at the sliders: the selected program bold, the geometric mean "
                     "dashed, the sliders' value marked. A flat curve means the parameter does "
                     "not limit there.")},
        {QStringLiteral("phases"),
         QObject::tr("The program's regions in execution order, coloured by phase: regions "
                     "with similar code (basic-block vectors) share a phase, and the number of "
                     "phases is chosen by the Bayesian information criterion, as SimPoint does. "
                     "Each phase is described by its CPI, its dominant bound and its share of "
                     "instructions. Click a region to drill every tab into it; Alt+Left "
                     "returns.")},
        {QStringLiteral("validation"),
         QObject::tr("How far to trust the predictions: the model's CPI against the reference "
                     "simulator's for every labelled configuration, with ±10 % lines. Programs "
                     "the model never trained on are drawn apart; their error is what to expect "
                     "for a new program.")},
    };
}

} // namespace

QString GuideDialog::html(const ViewCatalog& catalog) {
    QString text = QObject::tr(
        "<h2>Reading the explorer</h2>"
        "<p><b>Target and baseline.</b> The sliders set the <i>target</i> core; the "
        "<i>baseline</i> is what it is compared with (Presets ▸ Set as baseline). The status "
        "bar names both. A slider that has no effect in the current configuration (the simple "
        "predictor's miss rate under TAGE) is greyed out; its tooltip says why.</p>"
        "<p><b>Bound.</b> For every window of 400 instructions, each resource (ROB, load and "
        "store queues, issue widths, pipes, front end, …) has an analytical model that gives "
        "the highest IPC the window could reach if only that resource were limited: its "
        "<i>bound</i>. A bound far above the others does not matter.</p>"
        "<p><b>Binds.</b> The resource with the lowest bound in a window <i>binds</i> it: it is "
        "the tightest limit there. The minimum of the bounds is the IPC the models allow; the "
        "neural network turns the distributions of all bounds into the predicted CPI.</p>"
        "<p><b>Shapley bars.</b> The CPI change from baseline to target is shared out over "
        "groups of parameters by their average contribution over every order of changing "
        "them one group at a time; the segments add up to the total change.</p>"
        "<p><b>Bands.</b> Grey bands show a range: in the CDFs the minimum of the bounds, in "
        "the timeseries the lowest to highest minimum of the windows under a pixel. The "
        "coloured band under the timeseries shows which resources bind.</p>"
        "<p><b>Accuracy.</b> The header gives the model's measured error on unseen regions, "
        "on programs held out of its training, and on programs no step of its making saw "
        "(the error to expect on your own); Help ▸ About gives the last per preset beside the "
        "plain min-of-bounds CPI's and says where the database comes from.</p>");
    const QMap<QString, QString> texts = viewTexts();
    text += QObject::tr("<h2>The tabs</h2>");
    for (const ViewEntry& view : catalog.views())
        text += QStringLiteral("<h3>%1</h3><p>%2</p>")
                    .arg(view.title.toHtmlEscaped(),
                         texts.value(view.id, view.description.toHtmlEscaped()));
    return text;
}

GuideDialog::GuideDialog(const ViewCatalog& catalog, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("guide_dialog"));
    setWindowTitle(tr("Concorde Explorer guide"));
    auto* browser = new QTextBrowser;
    browser->setObjectName(QStringLiteral("guide_text"));
    browser->setHtml(html(catalog));
    browser->setOpenExternalLinks(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    resize(640, 600);
}

} // namespace concorde::ui
