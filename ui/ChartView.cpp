#include "ChartView.h"

#include "FittedTextTicker.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <bit>
#include <cmath>
#include <qcustomplot.h>
#include <vector>

namespace concorde::ui {

ChartView::ChartView(const QString& viewName, QWidget* parent)
    : QWidget(parent), viewName_(viewName), plot_(new QCustomPlot(this)),
      emptyMessage_(tr("No data to show")) {
    setObjectName(viewName + QStringLiteral("_view"));
    plot_->setObjectName(viewName + QStringLiteral("_plot"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    setMinimumSize(360, 260);
    plot_->setMouseTracking(true);
    plot_->setNoAntialiasingOnDrag(true);
    // Solid lines as separate segments on screen: Qt's raster engine strokes a wide polyline by
    // outlining and filling the whole path (CdfView: 13 ms a replot), but draws each segment of a
    // plain line directly (4 ms). Exports keep true polylines (QCustomPlot uses them when
    // painting without its cache or into vector files).
    plot_->setPlottingHint(QCP::phFastPolylines, true);
    connect(plot_, &QCustomPlot::mouseMove, this, &ChartView::onMouseMove);

    // Layout: row 0 an export's title line, row 1 the title, row 2 the body grid (the main axis
    // rect, any rows views add under it) beside the legend column, which so spans them all. The
    // default axis rect and legend are kept (QCustomPlot's xAxis, yAxis and legend keep pointing
    // at them) and moved there.
    QCPAxisRect* rect = plot_->axisRect();
    rect->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->take(rect);
    plot_->plotLayout()->simplify();
    headerElement_ = new QCPTextElement(plot_, QString());
    plot_->plotLayout()->addElement(0, 0, headerElement_);
    titleElement_ = new QCPTextElement(plot_, QString());
    plot_->plotLayout()->addElement(1, 0, titleElement_);
    auto* columns = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(2, 0, columns);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    body_ = new QCPLayoutGrid;
    columns->addElement(0, 0, body_);
    body_->addElement(0, 0, rect);
    legendColumn_ = new QCPLayoutGrid;
    columns->addElement(0, 1, legendColumn_);
    columns->setColumnStretchFactor(1, 0.001);
    legendColumn_->addElement(0, 0, plot_->legend);
    legendColumn_->addElement(1, 0, new QCPLayoutElement(plot_)); // pushes the legend to the top
    legendColumn_->setRowStretchFactor(0, 0.001);
    plot_->legend->setLayer(QStringLiteral("legend"));
    plot_->legend->setVisible(true);
    // Row 3: the caption; row 4: the legend when the chart is too narrow to have it beside;
    // row 5: an export's footer.
    captionElement_ = new QCPTextElement(plot_, QString());
    plot_->plotLayout()->addElement(3, 0, captionElement_);
    legendRow_ = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(4, 0, legendRow_);
    // An empty grid's maximum width is zero, which would squeeze the whole column: a filler
    // beside the legend's cell keeps the row as wide as the chart.
    legendRow_->addElement(0, 1, new QCPLayoutElement(plot_));
    footerElement_ = new QCPTextElement(plot_, QString());
    plot_->plotLayout()->addElement(5, 0, footerElement_);
    // Room above the title line and below the footer: a file has no window frame around it.
    headerElement_->setMargins(QMargins(8, 8, 8, 2));
    footerElement_->setMargins(QMargins(8, 6, 8, 6));
    for (int row : {3, 4, 5})
        plot_->plotLayout()->setRowStretchFactor(row, 0.001);
    hideElement(headerElement_);
    hideElement(footerElement_);
    hideElement(titleElement_);
    hideElement(captionElement_);
    hideElement(legendRow_);
    // Legend placement and caption wrapping follow the widget's size; tick labels are thinned
    // once the layout has settled the axes' lengths.
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] { fitLayout(plot_->size()); });
    connect(plot_, &QCustomPlot::afterLayout, this, &ChartView::refitTicks);
    // Highlighted series (the binding resource, the minimum) draw above the others.
    plot_->addLayer(QStringLiteral("highlight"), plot_->layer(QStringLiteral("main")),
                    QCustomPlot::limAbove);
}

void ChartView::setTheme(const ChartTheme& theme) {
    theme_ = theme;
    rebuild();
}

void ChartView::setTitle(const QString& title) {
    title_ = title;
    titleElement_->setText(title);
    showElement(titleElement_, !title.isEmpty());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::setCaption(const QString& caption) {
    caption_ = caption;
    captionElement_->setText(caption);
    showElement(captionElement_, !caption.isEmpty());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::fitLayout(const QSize& size) {
    const int width = std::max(size.width(), 200);
    // The caption and an export's lines, wrapped at word boundaries to the chart's width.
    const auto wrap = [&](QCPTextElement* element, const QString& text) {
        if (text.isEmpty() || !element->visible())
            return;
        const QString lines = wrapped(text, element->font(), width - 24);
        if (lines != element->text())
            element->setText(lines);
    };
    wrap(captionElement_, caption_);
    wrap(headerElement_, exportHeader_);
    wrap(footerElement_, exportFooter_);
    QCPLegend* legend = plot_->legend;
    if (!legend->visible()) {
        placeLegend(legendBelow_, legendColumns_);
        return;
    }
    // Cells of a wrapped legend may be empty: count and measure the items themselves.
    int itemWidth = 0, itemHeight = 0;
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i)) {
            const QSize hint = item->minimumOuterSizeHint();
            itemWidth = std::max(itemWidth, hint.width());
            itemHeight = std::max(itemHeight, hint.height());
            widths.push_back(hint.width());
        }
    const int items = static_cast<int>(widths.size());
    const QMargins margins = legend->margins();
    const int besideWidth = itemWidth + margins.left() + margins.right() + 16;
    const int spacing = int(12 * theme_.fontScale);
    // Below, as many columns as fit, each as wide as its widest entry (the entries fill the
    // rows left to right), with balanced rows: 11 entries with room for 10 columns become 2
    // rows of 6 and 5.
    int columns = 1;
    for (int c = std::max(items, 1); c > 1; --c) {
        const int rows = (items + c - 1) / c;
        if ((items + rows - 1) / rows != c)
            continue; // the same rows with fewer columns
        int total = margins.left() + margins.right() - spacing;
        for (int column = 0; column < c; ++column) {
            int widest = 0;
            for (int i = column; i < items; i += c)
                widest = std::max(widest, widths[std::size_t(i)]);
            total += widest + spacing;
        }
        if (total <= width - 40) {
            columns = c;
            break;
        }
    }
    const int rows = (items + columns - 1) / columns;
    const int belowHeight =
        rows * (itemHeight + legend->rowSpacing()) + margins.top() + margins.bottom() + 8;
    // Beside while it takes at most 30 % of the width and its entries fit the plot's height.
    // Beside, the legend has the height of the plot and the rows under it (the timeseries
    // band): the title, the caption and the axes take the rest.
    int besideRoom = size.height() - int(90 * theme_.fontScale);
    if (!title_.isEmpty())
        besideRoom -=
            static_cast<QCPLayoutElement*>(titleElement_)->minimumOuterSizeHint().height();
    for (QCPTextElement* text : {captionElement_, headerElement_, footerElement_})
        if (text->visible())
            besideRoom -= static_cast<QCPLayoutElement*>(text)->minimumOuterSizeHint().height();
    const int besideHeight =
        items * (itemHeight + legend->rowSpacing()) + margins.top() + margins.bottom();
    // Beside, laid out for real: the estimate above misses the axes' labels and ticks (large
    // on a projector), and a legend taller than its cell is squeezed, its entries drawn over
    // each other.
    const auto fits = [legend] {
        return legend->outerRect().height() >= legend->minimumOuterSizeHint().height();
    };
    const double besideArea = plotAreaWith(false, 1, size);
    const bool besideFits = fits();
    if (besideFits && besideHeight <= besideRoom && double(besideWidth) / width <= 0.3) {
        placeLegend(false, 1);
        return;
    }
    // Otherwise lay the chart out each way and keep the larger plot: below, the legend's rows
    // come off a height the caption and the timeseries band have already shortened; beside, a
    // legend taller than the plot squeezes the rows under it, so it may take two columns.
    // Below is preferred while it takes at most 35 % of the height and leaves the plot most of
    // the area beside would. A layout whose entries fit beats one whose do not.
    struct Layout {
        bool below;
        int columns;
        double area;
        bool fits;
    };
    std::vector<Layout> layouts{{false, 1, besideArea, besideFits}};
    const double belowShare = double(belowHeight) / std::max(size.height(), 150);
    const double belowArea = plotAreaWith(true, columns, size);
    layouts.push_back({true, columns, belowArea * (belowShare <= 0.35 ? 1.25 : 1.0), fits()});
    if (!besideFits && items > 1) {
        const double area = plotAreaWith(false, 2, size);
        layouts.push_back({false, 2, area, fits()});
    }
    const Layout best =
        *std::max_element(layouts.begin(), layouts.end(), [](const Layout& a, const Layout& b) {
            return std::pair(a.fits, a.area) < std::pair(b.fits, b.area);
        });
    placeLegend(best.below, best.columns);
}

double ChartView::plotAreaWith(bool below, int columns, const QSize& size) {
    placeLegend(below, columns);
    QCPLayoutGrid* layout = plot_->plotLayout();
    layout->setOuterRect(QRect(QPoint(0, 0), size));
    layout->update(QCPLayoutElement::upPreparation);
    layout->update(QCPLayoutElement::upMargins);
    layout->update(QCPLayoutElement::upLayout);
    const QRect rect = plot_->axisRect()->rect();
    return double(std::max(rect.width(), 0)) * std::max(rect.height(), 0);
}

void ChartView::placeLegend(bool below, int columns) {
    QCPLegend* legend = plot_->legend;
    const bool moved = below != legendBelow_;
    if (moved) {
        QCPLayoutGrid* from = below ? legendColumn_ : legendRow_;
        QCPLayoutGrid* to = below ? legendRow_ : legendColumn_;
        from->take(legend);
        to->addElement(0, 0, legend);
        legendBelow_ = below;
    }
    // Below, the entries fill rows of `columns`; beside, columns of as many rows as it takes
    // (wrap 0: one column).
    int items = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        items += legend->item(i) != nullptr;
    const int rows = (items + columns - 1) / std::max(columns, 1);
    const int wrap = below ? columns : (columns > 1 ? rows : 0);
    if (moved || legend->wrap() != wrap) {
        legend->setColumnSpacing(int(12 * theme_.fontScale));
        legend->setWrap(wrap);
        legend->setFillOrder(below ? QCPLayoutGrid::foColumnsFirst : QCPLayoutGrid::foRowsFirst,
                             true);
    }
    legendColumns_ = columns;
    const bool shown = legend->visible();
    showElement(legendColumn_, shown && !below);
    showElement(legendRow_, shown && below);
    if (below)
        legendRow_->setMinimumMargins(QMargins(8, 2, 8, 6));
}

QString ChartView::wrapped(const QString& text, const QFont& font, double width) const {
    const QFontMetricsF metrics(font);
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && metrics.horizontalAdvance(candidate) > width) {
                lines.push_back(line);
                line = word;
            } else {
                line = candidate;
            }
        }
        lines.push_back(line);
    }
    return lines.join(QLatin1Char('\n'));
}

void ChartView::refitTicks() {
    // A vertical axis' label longer than the plot is high goes on two or more lines (and back
    // on one when there is room); the margins then need another layout pass.
    bool relabelled = false;
    for (QCPAxisRect* rect : plot_->axisRects())
        for (QCPAxis* axis : rect->axes(QCPAxis::atLeft | QCPAxis::atRight)) {
            if (!axis->visible() || axis->label().isEmpty())
                continue;
            QString text = axis->label();
            text.replace(QLatin1Char('\n'), QLatin1Char(' '));
            const double length = std::max(rect->height() - 8, 40);
            const double full = QFontMetricsF(axis->labelFont()).horizontalAdvance(text);
            if (full > length) // lines of about equal length, not a long one and a last word
                text = wrapped(text, axis->labelFont(),
                               std::min(length, 1.15 * full / std::ceil(full / length)));
            if (text != axis->label()) {
                axis->setLabel(text);
                relabelled = true;
            }
        }
    if (relabelled) {
        plot_->plotLayout()->update(QCPLayoutElement::upMargins);
        plot_->plotLayout()->update(QCPLayoutElement::upLayout);
    }
    for (QCPAxisRect* rect : plot_->axisRects())
        rect->update(QCPLayoutElement::upPreparation);
    afterLayout();
}

void ChartView::setEmptyMessage(const QString& message, const QString& hint) {
    emptyMessage_ = message;
    emptyHint_ = hint;
    rebuild();
}

void ChartView::setRenderMode(RenderMode mode) {
    if (mode == renderMode_)
        return;
    renderMode_ = mode;
    const bool exporting = mode == RenderMode::Export;
    // The hover tracer marks where the pointer was: hidden in a file, back as it was after.
    if (exporting) {
        tracerShown_.clear();
        for (const auto& tracer : hoverTracers_) {
            tracerShown_.push_back(tracer && tracer->visible());
            if (tracer)
                tracer->setVisible(false);
        }
    } else {
        for (int i = 0; i < hoverTracers_.size() && i < tracerShown_.size(); ++i)
            if (hoverTracers_[i])
                hoverTracers_[i]->setVisible(tracerShown_[i]);
        tracerShown_.clear();
    }
    if (!hasData() && !emptyHint_.isEmpty())
        rebuild(); // the empty message with or without its hint
    renderModeChanged();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::setExportLines(const QString& header, const QString& footer) {
    exportHeader_ = header;
    exportFooter_ = footer;
    headerElement_->setText(header);
    footerElement_->setText(footer);
    showElement(headerElement_, !header.isEmpty());
    showElement(footerElement_, !footer.isEmpty());
}

QStringList ChartView::drawnTexts() const {
    QStringList texts;
    const auto add = [&](const QString& text) {
        if (!text.isEmpty())
            texts.push_back(text);
    };
    for (int i = 0; i < plot_->plotLayout()->elementCount(); ++i)
        if (auto* text = qobject_cast<QCPTextElement*>(plot_->plotLayout()->elementAt(i)))
            if (text->visible())
                add(text->text());
    for (QCPAxisRect* rect : plot_->axisRects())
        for (QCPAxis* axis : rect->axes())
            if (axis->visible())
                add(axis->label());
    if (plot_->legend->visible())
        for (int i = 0; i < plot_->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot_->legend->item(i)))
                add(item->plottable()->name());
    for (int i = 0; i < plot_->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot_->item(i)))
            if (text->visible() && (!text->layer() || text->layer()->visible()))
                add(text->text());
    return texts;
}

QCPAxisRect* ChartView::resetPlot() {
    plot_->clearPlottables();
    plot_->clearItems();
    // Keep only the main axis rect and the legend column in the body.
    for (int row = body_->rowCount() - 1; row >= 1; --row)
        for (int col = body_->columnCount() - 1; col >= 0; --col)
            if (body_->hasElement(row, col))
                body_->remove(body_->element(row, col));
    body_->simplify();
    auto* rect = qobject_cast<QCPAxisRect*>(body_->element(0, 0));
    for (QCPAxis* axis : rect->axes())
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    for (QCPAxis* axis : rect->axes()) {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTickLabelRotation(0);
        axis->setLabel(QString());
        axis->setRangeReversed(false);
    }
    rect->axis(QCPAxis::atTop)->setVisible(false);
    rect->axis(QCPAxis::atRight)->setVisible(false);
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    plot_->setBackground(theme_.background);
    titleElement_->setFont(theme_.font(1.3));
    titleElement_->setTextColor(theme_.foreground);
    titleElement_->setText(title_);
    captionElement_->setFont(theme_.font(1.0));
    captionElement_->setTextColor(theme_.foreground);
    QFont header = theme_.font(1.15);
    header.setBold(true);
    headerElement_->setFont(header);
    headerElement_->setTextColor(theme_.foreground);
    footerElement_->setFont(theme_.font(0.85));
    footerElement_->setTextColor(theme_.tint(theme_.foreground, 0.75));
    // Views that want a caption set it again in their rebuild().
    caption_.clear();
    captionElement_->setText(QString());
    hideElement(captionElement_);
    styleAxisRect(rect);
    QCPLegend* legend = plot_->legend;
    legend->setFont(theme_.font(1.0));
    legend->setTextColor(theme_.foreground);
    legend->setBrush(theme_.background);
    legend->setBorderPen(QPen(theme_.grid));
    legend->setIconSize(QSize(int(22 * theme_.fontScale), int(12 * theme_.fontScale)));
    legend->setRowSpacing(int(2 * theme_.fontScale));
    legend->setMargins(QMargins(7, 5, 7, 5));
    legendColumn_->setMinimumMargins(QMargins(4, 4, 8, 4));
    setLegendVisible(true);
    hoverTracers_.clear(); // clearItems() deleted them
    tracerShown_.clear();
    return rect;
}

void ChartView::styleAxisRect(QCPAxisRect* rect) const {
    rect->setBackground(theme_.background);
    for (QCPAxis* axis : rect->axes()) {
        axis->setBasePen(QPen(theme_.foreground, std::max(1.0, theme_.fontScale)));
        axis->setTickPen(QPen(theme_.foreground, std::max(1.0, theme_.fontScale)));
        axis->setSubTickPen(QPen(theme_.foreground, 1));
        axis->setTickLabelColor(theme_.foreground);
        axis->setLabelColor(theme_.foreground);
        axis->setTickLabelFont(theme_.font(1.0));
        axis->setLabelFont(theme_.font(1.1));
        axis->setTickLengthIn(0);
        axis->setTickLengthOut(int(5 * theme_.fontScale));
        axis->setSubTickLengthIn(0);
        axis->setSubTickLengthOut(int(2 * theme_.fontScale));
        axis->setLabelPadding(int(4 * theme_.fontScale));
        axis->grid()->setPen(QPen(theme_.grid, 1, Qt::DotLine));
        axis->grid()->setSubGridVisible(false);
        axis->grid()->setZeroLinePen(QPen(theme_.grid, 1));
    }
}

void ChartView::showEmptyMessage() {
    auto* rect = qobject_cast<QCPAxisRect*>(body_->element(0, 0));
    auto* text = new QCPItemText(plot_);
    text->setObjectName(QStringLiteral("empty_message"));
    text->setClipToAxisRect(false);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setAxisRect(rect);
    text->position->setCoords(0.5, 0.5);
    text->setPositionAlignment(Qt::AlignCenter);
    text->setText(exporting() || emptyHint_.isEmpty()
                      ? emptyMessage_
                      : emptyMessage_ + QLatin1Char('\n') + emptyHint_);
    text->setFont(theme_.font(1.2));
    text->setColor(theme_.foreground);
    setLegendVisible(false);
}

void ChartView::setLegendVisible(bool visible) {
    plot_->legend->setVisible(visible);
    showElement(legendColumn_, visible && !legendBelow_);
    showElement(legendRow_, visible && legendBelow_);
}

void ChartView::showElement(QCPLayoutElement* element, bool shown) {
    if (auto* text = qobject_cast<QCPTextElement*>(element)) {
        // A text element keeps a line's height even when empty and capped: take it out of the
        // layout while hidden.
        const int row = rowOf(text);
        QCPLayoutGrid* layout = plot_->plotLayout();
        const bool inLayout = layout->hasElement(row, 0) && layout->element(row, 0) == text;
        if (shown && !inLayout)
            layout->addElement(row, 0, text);
        else if (!shown && inLayout)
            layout->take(text);
        text->setVisible(shown);
        return;
    }
    element->setVisible(shown);
    // An invisible element still takes its minimum size in the layout; cap it to nothing.
    element->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    if (!shown)
        element->setMaximumSize(element == legendColumn_ ? 0 : QWIDGETSIZE_MAX,
                                element == legendColumn_ ? QWIDGETSIZE_MAX : 0);
}

int ChartView::rowOf(const QCPTextElement* text) const {
    if (text == headerElement_)
        return 0;
    if (text == titleElement_)
        return 1;
    return text == captionElement_ ? 3 : 5;
}

void ChartView::hideElement(QCPLayoutElement* element) {
    showElement(element, false);
}

QSharedPointer<QCPAxisTicker> ChartView::logTicker(QCPAxis* axis, double lower, double upper) {
    lower = std::max(lower, 1e-6);
    upper = std::max(upper, lower * 1.0001);
    const double decades = std::log10(upper / lower);
    const std::vector<double> mantissas = decades < 1.3
                                              ? std::vector<double>{1, 1.5, 2, 3, 4, 5, 6, 8}
                                          : decades < 4.5 ? std::vector<double>{1, 2, 5}
                                                          : std::vector<double>{1, 3};
    auto ticker = QSharedPointer<FittedTextTicker>(new FittedTextTicker(axis));
    for (int e = -4; e <= 4; ++e)
        for (const double m : mantissas) {
            const double v = m * std::pow(10.0, e);
            // Decades first, then 5s, then 2s and 3s, then the rest.
            const int priority = m == 1 ? 0 : m == 5 ? 1 : (m == 2 || m == 3) ? 2 : 3;
            ticker->addTick(v, QString::number(v, 'g', 6), priority);
        }
    return ticker;
}

int ChartView::keyedRowAt(const QPointF& pos, int rows) const {
    if (rows == 0 || !plot_->axisRect()->rect().contains(pos.toPoint()))
        return -1;
    const double key = plot_->axisRect()->axis(QCPAxis::atLeft)->pixelToCoord(pos.y());
    const int i = rows - static_cast<int>(std::lround(key));
    return i >= 0 && i < rows ? i : -1;
}

double ChartView::rowNamePitch(const QCPAxis* rows) {
    return QFontMetricsF(rows->tickLabelFont()).height() * (1.0 + kRowLabelGap);
}

void ChartView::updateHeightForEveryRow(const QCPAxis* rows, double pitch) {
    const int needed = plot_->viewport().height() - rows->axisRect()->height() +
                       int(std::ceil(rows->range().size() * pitch * 1.05)) + 4;
    if (needed != heightForEveryRow_) {
        heightForEveryRow_ = needed;
        emit heightForEveryRowChanged(needed);
    }
}

QScrollArea* ChartView::rowScrollArea(ChartView* view, const QString& objectName, QWidget* parent) {
    auto* scroll = new QScrollArea(parent);
    scroll->setObjectName(objectName);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(view);
    connect(view, &ChartView::heightForEveryRowChanged, view,
            [view, least = view->minimumHeight()](int height) {
                view->setMinimumHeight(std::max(height, least));
            });
    return scroll;
}

QSharedPointer<QCPAxisTicker> ChartView::sequenceTicker(QCPAxis* axis, const QStringList& labels,
                                                        const QVector<double>& positions,
                                                        double gap) {
    auto ticker = QSharedPointer<FittedTextTicker>(new FittedTextTicker(axis, gap));
    for (int i = 0; i < labels.size(); ++i) {
        // The first label, then every 32nd, 16th, ... 2nd, then all: regular thinning.
        const int priority = i == 0 ? 0 : std::max(1, 6 - std::countr_zero(unsigned(i)));
        ticker->addTick(i < positions.size() ? positions[i] : double(i), labels[i], priority);
    }
    return ticker;
}

QCPItemTracer* ChartView::addHoverTracer(QCPAxis* x, QCPAxis* y) {
    auto* tracer = new QCPItemTracer(plot_);
    tracer->setStyle(QCPItemTracer::tsCircle);
    tracer->setSize(9 * theme_.fontScale);
    tracer->setPen(QPen(theme_.foreground, 1.5));
    tracer->setBrush(theme_.background);
    tracer->position->setAxes(x, y);
    tracer->setVisible(false);
    tracer->setLayer(QStringLiteral("highlight"));
    hoverTracers_.push_back(tracer);
    return tracer;
}

QPen ChartView::pen(const QColor& colour, double widthFactor, Qt::PenStyle style) const {
    QPen p(colour, theme_.lineWidth * widthFactor, style);
    p.setCapStyle(Qt::FlatCap);
    p.setJoinStyle(Qt::MiterJoin);
    return p;
}

void ChartView::onMouseMove(QMouseEvent* event) {
    const QString text = hasData() ? hoverTextAt(event->position()) : QString();
    lastHoverText_ = text;
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(plot_->mapToGlobal(event->position().toPoint()), text, plot_);
    plot_->replot(QCustomPlot::rpQueuedReplot);
    emit hovered(text);
}

} // namespace concorde::ui
