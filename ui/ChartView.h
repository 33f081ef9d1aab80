#pragma once

#include "ChartTable.h"
#include "ChartTheme.h"
#include "FittedTextTicker.h"

#include <QList>
#include <QPointF>
#include <QPointer>
#include <QSharedPointer>
#include <QSize>
#include <QString>
#include <QWidget>

class QCustomPlot;
class QCPAxis;
class QCPAxisRect;
class QCPAxisTicker;
class QCPItemTracer;
class QCPLayoutElement;
class QCPLayoutGrid;
class QCPLegend;
class QCPTextElement;
class QMouseEvent;
class QScrollArea;

namespace concorde::ui {

/// The common part of the explorer's charts (CDF, timeseries, Shapley, phases): a QCustomPlot
/// with a title row, a theme, a legend beside the plot (never clipped: it sits in its own layout
/// column, sized to its entries) or, when the chart is too narrow for that, below it in as many
/// columns as fit, an optional caption under the plot wrapped to the chart's width, hover text
/// shown as a tooltip, and the plotted data as a table for CSV export. Views take immutable data
/// through their setters and redraw from it; they know nothing of the Session or the database, so
/// the main window and the headless export mode can drive them alike. ChartExporter writes any
/// ChartView to PNG, SVG, PDF or CSV.
class ChartView : public QWidget {
    Q_OBJECT

public:
    /// `viewName` names the view in file names and on the command line ("cdf", "timeseries"...).
    explicit ChartView(const QString& viewName, QWidget* parent = nullptr);

    QCustomPlot* plot() const { return plot_; }
    const QString& viewName() const { return viewName_; }

    /// The data as plotted, one row per plotted point or bar.
    virtual ChartTable dataTable() const = 0;
    /// Whether the view has data to plot (otherwise it shows its empty message).
    virtual bool hasData() const = 0;

    void setTheme(const ChartTheme& theme);
    const ChartTheme& theme() const { return theme_; }
    /// The title above the plot (e.g. "gzip region 3 — throughput CDFs").
    void setTitle(const QString& title);
    const QString& title() const { return title_; }
    /// What the plot says while it has no data; `hint` (e.g. "press Compute") follows on its own
    /// line in the window only, never in an export.
    void setEmptyMessage(const QString& message, const QString& hint = {});

    /// What the chart is drawn for: the window, or a file (ChartExporter). An export leaves out
    /// what only means something beside a pointer: interaction hints ("click a region…"), the
    /// hover tracer, selection marks. Views that draw such things honour exporting() in
    /// rebuild() or renderModeChanged(); back in Live mode the window's chart is as it was.
    enum class RenderMode { Live, Export };
    void setRenderMode(RenderMode mode);
    RenderMode renderMode() const { return renderMode_; }
    bool exporting() const { return renderMode_ == RenderMode::Export; }
    /// Lines an export adds around the chart (ChartExportContext): `header` above the title
    /// (what is shown, of which program, target and baseline), `footer` in small print under
    /// everything (database, model accuracy, date); empty: none. ChartExporter sets them for
    /// the time of an export and clears them after: the window's charts have neither.
    void setExportLines(const QString& header, const QString& footer);
    const QString& exportHeader() const { return exportHeader_; }
    const QString& exportFooter() const { return exportFooter_; }
    /// What an export's title line names as the chart's subject.
    enum class Scope {
        Selection,   ///< the selected program, or the region drilled into
        Program,     ///< the selected program, even when a region is drilled into
        EveryProgram ///< every program of the database
    };
    virtual Scope scope() const { return Scope::Selection; }
    /// The subject as the chart itself names it when it knows better than its scope (e.g. "the
    /// geometric mean of every program"); empty: the scope decides.
    virtual QString subject() const { return {}; }
    /// Every text the chart draws as it stands (title, export lines, caption, axis labels, legend
    /// entries, text items; visible ones only), for tests and checks of what an export shows.
    QStringList drawnTexts() const;

    /// The hover text for the pointer at `pos` (QCustomPlot widget pixels), empty where there is
    /// nothing to tell; views also move their tracer there. What the tooltip shows.
    virtual QString hoverTextAt(const QPointF& pos) = 0;
    /// The text of the last hover (tooltip), empty after the pointer left the data.
    const QString& lastHoverText() const { return lastHoverText_; }

    /// Size an export uses when none is given and the widget has never been laid out.
    virtual QSize defaultExportSize() const { return {1280, 800}; }

    /// Arranges the legend (beside or below the plot) and wraps the caption for a chart of
    /// `size` pixels. Runs before every replot of the widget; exports call it with their size.
    void fitLayout(const QSize& size);
    /// Whether the legend currently sits below the plot (the chart was too narrow beside it).
    bool legendBelow() const { return legendBelow_; }
    /// The text under the plot (e.g. what a window is), wrapped to the chart's width.
    void setCaption(const QString& caption);
    const QString& caption() const { return caption_; }

    /// For a chart of one bar row per program or parameter (overview, sensitivity, A/B): the
    /// chart height at which every row keeps its name (0 before the first layout, or for other
    /// charts). With dozens of rows a window is shorter: the page then scrolls.
    int heightForEveryRow() const { return heightForEveryRow_; }
    /// A vertical scroll area (no frame, no horizontal scroll bar) around `view`, named
    /// `objectName`, in which the view grows to heightForEveryRow() (never below its own
    /// minimum) and the page scrolls instead of the window growing. Exports are unaffected: they
    /// render at their own size.
    static QScrollArea* rowScrollArea(ChartView* view, const QString& objectName, QWidget* parent);

signals:
    /// The pointer moved over the plot; `text` is the hover text (empty when over nothing).
    void hovered(const QString& text);
    /// heightForEveryRow() changed.
    void heightForEveryRowChanged(int height);

protected:
    /// Key (y coordinate) of row `i` of `n` in a horizontal bar chart: the first row on top.
    static double rowKey(int i, int n) { return static_cast<double>(n - i); }
    /// Rebuilds every plottable and item from the view's data and theme, then replots.
    virtual void rebuild() = 0;
    /// Starts a rebuild: clears plottables, items and extra axis rects, restores the layout to
    /// title + main axis rect + legend column, applies the theme. Returns the main axis rect.
    QCPAxisRect* resetPlot();
    /// Applies the theme's fonts, colours and pens to an axis rect's axes and grids.
    void styleAxisRect(QCPAxisRect* rect) const;
    /// Shows the empty message in the middle of the main axis rect (call from rebuild()).
    void showEmptyMessage();
    /// Shows or hides the legend column.
    void setLegendVisible(bool visible);
    /// The hidden circle that marks the point under the pointer, on axes `x` and `y`, above the
    /// highlighted series; hoverTextAt() moves and shows it.
    QCPItemTracer* addHoverTracer(QCPAxis* x, QCPAxis* y);
    /// A pen of the theme's line width (×`widthFactor`).
    QPen pen(const QColor& colour, double widthFactor = 1.0,
             Qt::PenStyle style = Qt::SolidLine) const;

    /// Ticks for a logarithmic `axis` showing [lower, upper], labelled at 1-2-5 steps (finer
    /// over a short range, sparser over many decades), so a log axis never has just one label;
    /// where labels would overlap, the decades stay and the steps between them go.
    static QSharedPointer<QCPAxisTicker> logTicker(QCPAxis* axis, double lower, double upper);
    /// Sequence labels (region indices, names) on `axis` at positions 0, 1, 2...: thinned to
    /// every 2nd, 4th, 8th... where they would overlap, always keeping the first.
    /// Gap between the names of a chart's bar rows (one label per row, centred on its bars),
    /// in label heights: rows can sit closer than the ticks of a scale.
    static constexpr double kRowLabelGap = 0.15;
    /// `gap` is FittedTextTicker's (kRowLabelGap for one label per bar row).
    static QSharedPointer<QCPAxisTicker> sequenceTicker(QCPAxis* axis, const QStringList& labels,
                                                        const QVector<double>& positions = {},
                                                        double gap = FittedTextTicker::kGap);
    /// For a chart of `rows` horizontal rows keyed rows, rows − 1, ..., 1 from the top on the
    /// left axis (the overview, the sensitivity ranking): the index of the row under plot pixel
    /// `pos` (0: the top row), or -1 outside the rows.
    int keyedRowAt(const QPointF& pos, int rows) const;
    /// The row pitch of names on `rows` in its tick label font with kRowLabelGap, in pixels.
    static double rowNamePitch(const QCPAxis* rows);
    /// Call from afterLayout() of a chart with one row per unit of `rows`' range: sets
    /// heightForEveryRow() to the chart height at which each row gets `pitch` pixels (what is
    /// not the axis rect, plus the rows with 5 % to spare: the ticker keeps a level of names
    /// only if all of them fit, so rounding must not lose one) and emits
    /// heightForEveryRowChanged() when it changed.
    void updateHeightForEveryRow(const QCPAxis* rows, double pitch);
    /// Called after each layout, when pixel positions are final (e.g. to keep a label inside the
    /// plot). The default does nothing.
    virtual void afterLayout() {}
    /// Called after setRenderMode() changed the mode (the hover tracers are already hidden or
    /// restored): views with interaction hints or selection marks show or hide them here.
    virtual void renderModeChanged() {}

    /// The layout grid below the title, beside the legend column: (0, 0) the main axis rect.
    /// Views may add rows under it (e.g. the timeseries band); the legend beside spans them.
    QCPLayoutGrid* body() const { return body_; }

private:
    void onMouseMove(QMouseEvent* event);
    /// Regenerates every axis' ticks once the layout is final (ticks are made before layout).
    void refitTicks();
    /// The legend below the plot in rows of `columns` entries, or beside it in `columns`
    /// columns.
    void placeLegend(bool below, int columns);
    /// The main plot's area (square pixels) with the legend placed so, laid out at `size` (the
    /// replot lays the chart out again for real).
    double plotAreaWith(bool below, int columns, const QSize& size);
    void showElement(QCPLayoutElement* element, bool shown);
    /// The plot layout's row of a text element (header, title, caption, footer).
    int rowOf(const QCPTextElement* text) const;
    void hideElement(QCPLayoutElement* element);
    QString wrapped(const QString& text, const QFont& font, double width) const;

    QString viewName_;
    QCustomPlot* plot_ = nullptr;
    QCPTextElement* headerElement_ = nullptr; ///< an export's title line
    QCPTextElement* titleElement_ = nullptr;
    QCPTextElement* footerElement_ = nullptr; ///< an export's footer
    QCPLayoutGrid* body_ = nullptr;
    QCPLayoutGrid* legendColumn_ = nullptr;
    QCPLayoutGrid* legendRow_ = nullptr;
    QCPTextElement* captionElement_ = nullptr;
    bool legendBelow_ = false;
    int legendColumns_ = 1; ///< of the legend's entries, below or beside
    QString caption_;
    ChartTheme theme_;
    QString title_;
    QString emptyMessage_;
    QString emptyHint_;
    QString lastHoverText_;
    RenderMode renderMode_ = RenderMode::Live;
    QString exportHeader_;
    QString exportFooter_;
    /// The hover tracers of the current build, and whether each was shown before an export.
    QList<QPointer<QCPItemTracer>> hoverTracers_;
    QList<bool> tracerShown_;
    int heightForEveryRow_ = 0;
};

} // namespace concorde::ui
