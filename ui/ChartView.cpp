#include "ChartView.h"

#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
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
    connect(plot_, &QCustomPlot::mouseMove, this, &ChartView::onMouseMove);

    // Layout: row 0 the title, row 1 the body grid (main axis rect | legend column). The default
    // axis rect and legend are kept (QCustomPlot's xAxis, yAxis and legend keep pointing at them)
    // and moved into the body.
    QCPAxisRect* rect = plot_->axisRect();
    rect->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->take(rect);
    plot_->plotLayout()->simplify();
    titleElement_ = new QCPTextElement(plot_, QString());
    plot_->plotLayout()->addElement(0, 0, titleElement_);
    body_ = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 0, body_);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    body_->addElement(0, 0, rect);
    legendColumn_ = new QCPLayoutGrid;
    body_->addElement(0, 1, legendColumn_);
    body_->setColumnStretchFactor(1, 0.001);
    legendColumn_->addElement(0, 0, plot_->legend);
    legendColumn_->addElement(1, 0, new QCPLayoutElement(plot_)); // pushes the legend to the top
    legendColumn_->setRowStretchFactor(0, 0.001);
    plot_->legend->setLayer(QStringLiteral("legend"));
    plot_->legend->setVisible(true);
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
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::setEmptyMessage(const QString& message) {
    emptyMessage_ = message;
    rebuild();
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
    styleAxisRect(rect);
    QCPLegend* legend = plot_->legend;
    legend->setFont(theme_.font(1.0));
    legend->setTextColor(theme_.foreground);
    legend->setBrush(theme_.background);
    legend->setBorderPen(QPen(theme_.grid));
    legend->setIconSize(QSize(int(22 * theme_.fontScale), int(12 * theme_.fontScale)));
    legend->setRowSpacing(int(2 * theme_.fontScale));
    legend->setMargins(QMargins(7, 5, 7, 5));
    legend->setVisible(true);
    legendColumn_->setMinimumMargins(QMargins(4, 4, 8, 4));
    legendColumn_->setVisible(true);
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
    text->setText(emptyMessage_);
    text->setFont(theme_.font(1.2));
    text->setColor(theme_.foreground);
    setLegendVisible(false);
}

void ChartView::setLegendVisible(bool visible) {
    plot_->legend->setVisible(visible);
    legendColumn_->setVisible(visible);
    // An invisible element still takes its minimum width; drop it from the width computation.
    legendColumn_->setMaximumSize(visible ? QWIDGETSIZE_MAX : 0, QWIDGETSIZE_MAX);
}

QSharedPointer<QCPAxisTicker> ChartView::logTicker(double lower, double upper) {
    lower = std::max(lower, 1e-6);
    upper = std::max(upper, lower * 1.0001);
    const double decades = std::log10(upper / lower);
    const std::vector<double> mantissas = decades < 1.3
                                              ? std::vector<double>{1, 1.5, 2, 3, 4, 5, 6, 8}
                                          : decades < 4.5 ? std::vector<double>{1, 2, 5}
                                                          : std::vector<double>{1, 3};
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    ticker->setSubTickCount(0);
    for (int e = -4; e <= 4; ++e)
        for (const double m : mantissas) {
            const double v = m * std::pow(10.0, e);
            ticker->addTick(v, QString::number(v, 'g', 6));
        }
    return ticker;
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
