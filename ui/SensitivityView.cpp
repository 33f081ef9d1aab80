#include "SensitivityView.h"

#include "ChartFormat.h"
#include "params/ParameterSpace.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace concorde::ui {
namespace {

/// Steps smaller than this (in % of CPI) get no value label beside their bar.
constexpr double kUnlabelledPercent = 0.5;

constexpr double kSensitivityBarWidth = 0.36;

/// The value labels' size relative to the row names'.
constexpr double kValueFont = 0.8;

/// The smallest size the row names shrink to, in points (16 pixels at 96 dpi): at 1024×768 on a
/// projector, about as large as a slide's footnote.
constexpr double kSmallestPointSize = 12.0;

/// "−4.2 %" / "+3.0 %" / "±0.0 %" of a relative change.
QString changeText(double change) {
    const double percent = change * 100.0;
    if (std::abs(percent) < 0.05)
        return QStringLiteral("±0.0 %");
    return (percent < 0 ? QStringLiteral("−") : QStringLiteral("+")) +
           QString::number(std::abs(percent), 'f', 1) + QStringLiteral(" %");
}

QString labelOf(const ParameterSensitivity& s) {
    const ParameterSpec& spec = ParameterSpace::spec(s.parameter);
    return QString::fromStdString(spec.label) + QStringLiteral(" = ") +
           QString::fromStdString(spec.formatWithUnit(s.value));
}

} // namespace

SensitivityView::SensitivityView(QWidget* parent)
    : ChartView(QStringLiteral("sensitivity"), parent) {
    setTitle(tr("Sensitivity: CPI change one grid step down and up"));
    setEmptyMessage(tr("No prediction yet: open a feature database"));
    connect(plot(), &QCustomPlot::mousePress, this, &SensitivityView::onMousePress);
}

void SensitivityView::setRanking(std::vector<ParameterSensitivity> ranking,
                                 const QString& subject) {
    ranking_ = std::move(ranking);
    subject_ = subject;
    setTitle(subject.isEmpty()
                 ? tr("Sensitivity: CPI change one grid step down and up")
                 : tr("Sensitivity of %1: CPI change one grid step down and up").arg(subject));
    rebuild();
}

void SensitivityView::rebuild() {
    QCPAxisRect* rect = resetPlot(); // deletes the value labels
    names_.clear();
    valueLabels_.clear();
    plot()->setInteractions({});
    QCPAxis* rows = rect->axis(QCPAxis::atLeft);
    QCPAxis* change = rect->axis(QCPAxis::atBottom);
    lower_ = new QCPBars(rows, change);
    lower_->setName(tr("one grid step down"));
    upper_ = new QCPBars(rows, change);
    upper_->setName(tr("one grid step up"));
    auto* group = new QCPBarsGroup(plot());
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    upper_->setBarsGroup(group);
    lower_->setBarsGroup(group); // drawn above the step up within a row
    const double outline = std::max(1.0, theme().lineWidth / 1.5);
    for (auto [bars, colour] :
         {std::pair{lower_, theme().baseline}, std::pair{upper_, theme().target}}) {
        bars->setWidth(kSensitivityBarWidth);
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(140), outline));
    }
    const int n = static_cast<int>(ranking_.size());
    if (n == 0) {
        rows->setRange(0, 1);
        change->setRange(-1, 1);
        showEmptyMessage();
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    QVector<double> lowerKeys, lowerValues, upperKeys, upperValues, keys;
    QStringList& names = names_;
    double largest = 0;
    for (int i = 0; i < n; ++i) {
        const ParameterSensitivity& s = ranking_[static_cast<std::size_t>(i)];
        keys << rowKey(i, n);
        names << labelOf(s);
        if (s.lowerValue) {
            lowerKeys << rowKey(i, n);
            lowerValues << s.lowerChange() * 100.0;
        }
        if (s.upperValue) {
            upperKeys << rowKey(i, n);
            upperValues << s.upperChange() * 100.0;
        }
        largest = std::max(largest, s.magnitude() * 100.0);
    }
    lower_->setData(lowerKeys, lowerValues, true);
    upper_->setData(upperKeys, upperValues, true);
    // One label per parameter row, centred on its pair of bars: a small gap keeps all twenty
    // on a 1024x768 screen (with the scale's gap every second name disappeared).
    rows->setTicker(sequenceTicker(rows, names, keys, kRowLabelGap));
    rows->grid()->setVisible(false);
    rows->setSubTicks(false);
    rows->setRange(0.4, n + 0.6);
    // Symmetric around zero, with room for the labels beside the longest bars.
    const double half = std::max(largest, 0.5) * 2.2;
    change->setRange(-half, half);
    change->setLabel(tr("predicted CPI change, %  (left: faster, right: slower)"));

    auto* zero = new QCPItemStraightLine(plot());
    zero->point1->setCoords(0, 0);
    zero->point2->setCoords(0, 1);
    zero->setPen(QPen(theme().foreground, outline));
    for (int i = 0; i < n; ++i) {
        const ParameterSensitivity& s = ranking_[static_cast<std::size_t>(i)];
        for (const bool up : {false, true}) {
            const std::optional<double>& value = up ? s.upperValue : s.lowerValue;
            if (!value)
                continue;
            const double percent = (up ? s.upperChange() : s.lowerChange()) * 100.0;
            // A step under half a percent is drawn but not labelled: on a small screen twenty
            // "±0.0 %" labels piled up around zero and hid the rows that matter (the hover
            // still reads every bar).
            if (std::abs(percent) < kUnlabelledPercent)
                continue;
            auto* label = new QCPItemText(plot());
            const bool right = percent >= 0;
            label->setPositionAlignment((right ? Qt::AlignLeft : Qt::AlignRight) |
                                        Qt::AlignVCenter);
            label->setPadding(QMargins(right ? 5 : 0, 0, right ? 0 : 5, 0));
            label->setClipToAxisRect(true);
            // Each bar of the pair sits a quarter row off the row's centre.
            const double offset = (up ? -1.0 : 1.0) * (kSensitivityBarWidth / 2 + 0.01);
            label->position->setCoords(percent, rowKey(i, n) + offset);
            label->setText(ChartFormat::parameterValue(s.parameter, *value) + QStringLiteral(": ") +
                           changeText(up ? s.upperChange() : s.lowerChange()));
            label->setColor(theme().foreground);
            valueLabels_ << label;
        }
    }
    applyLabelScale();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void SensitivityView::applyLabelScale() {
    QCPAxisRect* rect = plot()->axisRect();
    QCPAxis* rows = rect->axis(QCPAxis::atLeft);
    rows->setTickLabelFont(theme().font(labelScale_));
    for (QCPItemText* label : valueLabels_)
        label->setFont(theme().font(kValueFont * labelScale_));
    // Room for the longest parameter label: the automatic margin follows the labels shown at
    // the first layout, before the ticker has kept all of them.
    const QFontMetrics metrics(rows->tickLabelFont());
    int widest = 0;
    for (const QString& name : names_)
        widest = std::max(widest, metrics.horizontalAdvance(name));
    rect->setMinimumMargins(QMargins(widest + rows->tickLabelPadding() + 16, 0, 0, 0));
}

double SensitivityView::smallestScale() const {
    return std::min(1.0, kSmallestPointSize / theme().font(1.0).pointSizeF());
}

double SensitivityView::pitchAt(double scale) const {
    // A name per row, with the ticker's gap; the two bars' values one above the other.
    const QFontMetricsF names(theme().font(scale));
    const QFontMetricsF values(theme().font(kValueFont * scale));
    return std::max(names.height() * (1.0 + kRowLabelGap), 2.0 * values.height() + 2.0);
}

void SensitivityView::afterLayout() {
    if (ranking_.empty())
        return;
    QCPAxisRect* rect = plot()->axisRect();
    const double rows = rect->axis(QCPAxis::atLeft)->range().size(); // rows, with the margins
    const double smallest = smallestScale();
    updateHeightForEveryRow(rect->axis(QCPAxis::atLeft), pitchAt(smallest));
    double scale = 1.0;
    while (scale > smallest && pitchAt(scale) * rows > rect->height())
        scale = std::max(smallest, scale - 0.02);
    if (scale == labelScale_)
        return;
    labelScale_ = scale;
    applyLabelScale();
    // The names' width moved the plot's left edge: lay out again, then thin the names for the
    // final size (as ChartView does after each layout).
    plot()->plotLayout()->update(QCPLayoutElement::upMargins);
    plot()->plotLayout()->update(QCPLayoutElement::upLayout);
    rect->update(QCPLayoutElement::upPreparation);
}

int SensitivityView::rowAt(const QPointF& pos) const {
    return keyedRowAt(pos, static_cast<int>(ranking_.size()));
}

QString SensitivityView::hoverTextAt(const QPointF& pos) {
    const int i = rowAt(pos);
    if (i < 0)
        return {};
    const ParameterSensitivity& s = ranking_[static_cast<std::size_t>(i)];
    QString text = labelOf(s) + tr(": CPI %1").arg(QString::number(s.cpi, 'f', 3));
    if (s.lowerValue)
        text += tr("\n%1: CPI %2 (%3)")
                    .arg(ChartFormat::parameterValue(s.parameter, *s.lowerValue),
                         QString::number(s.lowerCpi, 'f', 3), changeText(s.lowerChange()));
    if (s.upperValue)
        text += tr("\n%1: CPI %2 (%3)")
                    .arg(ChartFormat::parameterValue(s.parameter, *s.upperValue),
                         QString::number(s.upperCpi, 'f', 3), changeText(s.upperChange()));
    return text;
}

void SensitivityView::onMousePress(QMouseEvent* event) {
    const int i = rowAt(event->position());
    if (i >= 0 && event->button() == Qt::LeftButton)
        emit parameterActivated(static_cast<int>(ranking_[static_cast<std::size_t>(i)].parameter));
}

ChartTable SensitivityView::dataTable() const {
    // One row per parameter and direction, in the ranking's order; a parameter at the end of
    // its grid has no row for that direction.
    ChartTable table;
    table.header = {QStringLiteral("parameter"),     QStringLiteral("direction"),
                    QStringLiteral("value"),         QStringLiteral("cpi"),
                    QStringLiteral("step_value"),    QStringLiteral("step_cpi"),
                    QStringLiteral("change_percent")};
    for (const ParameterSensitivity& s : ranking_) {
        const QString key = QString::fromStdString(ParameterSpace::spec(s.parameter).key);
        for (const bool up : {false, true}) {
            const std::optional<double>& step = up ? s.upperValue : s.lowerValue;
            if (!step)
                continue;
            table.rows.push_back(
                {key, up ? QStringLiteral("up") : QStringLiteral("down"),
                 ChartFormat::parameterValue(s.parameter, s.value), ChartTable::number(s.cpi),
                 ChartFormat::parameterValue(s.parameter, *step),
                 ChartTable::number(up ? s.upperCpi : s.lowerCpi),
                 ChartTable::number((up ? s.upperChange() : s.lowerChange()) * 100.0)});
        }
    }
    return table;
}

} // namespace concorde::ui
