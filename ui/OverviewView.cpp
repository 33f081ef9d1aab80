#include "OverviewView.h"

#include "Theme.h"

#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace concorde::ui {
namespace {

QString cpiText(double cpi) {
    return QString::number(cpi, 'f', 3);
}

/// "−4.2 %" / "+3.0 %" / "±0.0 %".
QString deltaText(double target, double baseline) {
    const double delta = (target / baseline - 1.0) * 100.0;
    if (!std::isfinite(delta) || std::abs(delta) < 0.05)
        return QStringLiteral("±0.0 %");
    return (delta < 0 ? QStringLiteral("−") : QStringLiteral("+")) +
           QString::number(std::abs(delta), 'f', 1) + QStringLiteral(" %");
}

/// Key (y coordinate) of row `i` of `n`: the first row at the top.
double keyOf(int i, int n) {
    return static_cast<double>(n - i);
}

} // namespace

OverviewView::OverviewView(Session& session, QWidget* parent) : QWidget(parent), session_(session) {
    setObjectName(QStringLiteral("view_overview"));
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("overview_plot"));
    plot_->setMouseTracking(true);
    plot_->setNoAntialiasingOnDrag(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);

    plot_->plotLayout()->insertRow(0);
    title_ = new QCPTextElement(plot_, QString());
    plot_->plotLayout()->addElement(0, 0, title_);

    QCPAxis* programs = plot_->yAxis;
    QCPAxis* cpi = plot_->xAxis;
    target_ = new QCPBars(programs, cpi); // created first: first in the legend
    target_->setName(tr("Target"));
    baseline_ = new QCPBars(programs, cpi);
    baseline_->setName(tr("Baseline"));
    auto* group = new QCPBarsGroup(plot_);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    // Drawn in this order from low to high key: the target's bar sits above the baseline's.
    baseline_->setBarsGroup(group);
    target_->setBarsGroup(group);
    baseline_->setWidth(0.36);
    target_->setWidth(0.36);

    band_ = new QCPItemRect(plot_);
    band_->setLayer(QStringLiteral("background"));
    band_->setClipToAxisRect(true);
    band_->setVisible(false);

    cpi->setLabel(tr("predicted CPI (lower is faster); rows sorted by baseline CPI"));
    cpi->setRangeLower(0);
    programs->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    programs->grid()->setVisible(false);
    programs->setSubTicks(false);
    programs->setTickLength(0, 0);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);

    connect(plot_, &QCustomPlot::mouseMove, this, &OverviewView::onMouseMove);
    connect(plot_, &QCustomPlot::mousePress, this, &OverviewView::onMousePress);
    connect(&session_, &Session::predictionReady, this, &OverviewView::showPrediction);
    connect(&session_.theme(), &Theme::changed, this, &OverviewView::restyle);
    restyle();
    showPrediction(session_.prediction());
}

void OverviewView::showPrediction(const PredictionPtr& prediction) {
    rows_.clear();
    if (prediction) {
        const ExplorerPrediction& p = *prediction;
        for (std::size_t i = 0; i < p.programs.size(); ++i)
            rows_.push_back({QString::fromStdString(p.programs[i]), p.targetCpi[i],
                             p.baselineCpi[i], i == p.programIndex});
        // Sorted by baseline CPI, slowest first: the target's sliders never reorder the rows.
        std::stable_sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
            return a.baseline != b.baseline ? a.baseline > b.baseline : a.program < b.program;
        });
    }
    rebuild();
}

void OverviewView::rebuild() {
    const int n = static_cast<int>(rows_.size());
    QVector<double> keys, targets, baselines;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double largest = 0;
    int selected = -1;
    for (int i = 0; i < n; ++i) {
        const Row& row = rows_[i];
        keys << keyOf(i, n);
        targets << row.target;
        baselines << row.baseline;
        ticker->addTick(keyOf(i, n),
                        row.selected ? QStringLiteral("▸ ") + row.program : row.program);
        largest = std::max({largest, row.target, row.baseline});
        if (row.selected)
            selected = i;
    }
    target_->setData(keys, targets, true);
    baseline_->setData(keys, baselines, true);
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(0.4, n + 0.6);
    // Room on the right for the value written beside each row.
    const double room = session_.theme().projector() ? 1.45 : 1.3;
    const double right = largest > 0 ? largest * room : 1.0;
    plot_->xAxis->setRange(0, right);

    while (labels_.size() < n) {
        auto* label = new QCPItemText(plot_);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(6, 0, 0, 0));
        label->setClipToAxisRect(true);
        labels_ << label;
    }
    const Theme& theme = session_.theme();
    for (int i = 0; i < labels_.size(); ++i) {
        QCPItemText* label = labels_[i];
        label->setVisible(i < n);
        if (i >= n)
            continue;
        const Row& row = rows_[i];
        label->position->setCoords(std::max(row.target, row.baseline), keyOf(i, n));
        label->setText(cpiText(row.target) + QStringLiteral("  (") +
                       deltaText(row.target, row.baseline) + QLatin1Char(')'));
        label->setFont(theme.font(0.9, row.selected));
        label->setColor(theme.foreground());
    }

    band_->setVisible(selected >= 0);
    if (selected >= 0) {
        // Within the axis range: SVG output ignores the clip, and PDF drops huge coordinates.
        band_->topLeft->setCoords(0, keyOf(selected, n) + 0.5);
        band_->bottomRight->setCoords(right, keyOf(selected, n) - 0.5);
    }
    title_->setText(n == 0 ? tr("No prediction yet: open a feature database")
                           : tr("CPI of every program, target vs baseline"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void OverviewView::restyle() {
    const Theme& theme = session_.theme();
    theme.stylePlot(*plot_);
    const double outline = theme.projector() ? 2.0 : 1.0;
    target_->setBrush(theme.target());
    target_->setPen(QPen(theme.target().darker(140), outline));
    baseline_->setBrush(theme.baseline());
    baseline_->setPen(QPen(theme.baseline().darker(140), outline));
    band_->setBrush(theme.highlight());
    band_->setPen(Qt::NoPen);
    title_->setFont(theme.font(1.2, true));
    title_->setTextColor(theme.foreground());
    rebuild();
}

int OverviewView::rowAt(const QPoint& pos) const {
    const int n = static_cast<int>(rows_.size());
    if (n == 0 || !plot_->axisRect()->rect().contains(pos))
        return -1;
    const double key = plot_->yAxis->pixelToCoord(pos.y());
    const int i = n - static_cast<int>(std::lround(key));
    return i >= 0 && i < n ? i : -1;
}

QString OverviewView::hoverTextAt(const QPoint& pos) const {
    const int i = rowAt(pos);
    if (i < 0)
        return {};
    const Row& row = rows_[i];
    return tr("%1\nTarget CPI %2 (IPC %3)\nBaseline CPI %4 (IPC %5)\nChange: %6")
        .arg(row.program, cpiText(row.target), cpiText(1.0 / row.target), cpiText(row.baseline),
             cpiText(1.0 / row.baseline), deltaText(row.target, row.baseline));
}

void OverviewView::onMouseMove(QMouseEvent* event) {
    const QString text = hoverTextAt(event->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

void OverviewView::onMousePress(QMouseEvent* event) {
    const int i = rowAt(event->pos());
    if (i >= 0 && event->button() == Qt::LeftButton)
        session_.setProgram(rows_[i].program);
}

QString OverviewView::csv() const {
    QString out = QStringLiteral("program,target_cpi,baseline_cpi,delta_percent,selected\n");
    for (const Row& row : rows_) {
        QString program = row.program;
        if (program.contains(QLatin1Char(',')) || program.contains(QLatin1Char('"')))
            program = QLatin1Char('"') +
                      program.replace(QLatin1String("\""), QLatin1String("\"\"")) +
                      QLatin1Char('"');
        out += QStringLiteral("%1,%2,%3,%4,%5\n")
                   .arg(program, QString::number(row.target, 'g', 9),
                        QString::number(row.baseline, 'g', 9),
                        QString::number((row.target / row.baseline - 1.0) * 100.0, 'g', 6),
                        row.selected ? QStringLiteral("1") : QStringLiteral("0"));
    }
    return out;
}

} // namespace concorde::ui
