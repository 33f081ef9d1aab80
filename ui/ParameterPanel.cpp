#include "ParameterPanel.h"

#include "QtStrings.h"
#include "Session.h"
#include "params/ParameterRelevance.h"

#include <QAction>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

namespace concorde::ui {
namespace {

QString groupObjectName(ParamGroup group) {
    switch (group) {
    case ParamGroup::FrontEnd:
        return QStringLiteral("group_front_end");
    case ParamGroup::BackEnd:
        return QStringLiteral("group_back_end");
    case ParamGroup::Memory:
        return QStringLiteral("group_memory");
    }
    return {};
}

/// Index of the value of `values` nearest to `value` (ties go to the smaller value).
int nearestIndex(const std::vector<double>& values, double value) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (std::fabs(values[i] - value) < std::fabs(values[best] - value))
            best = i;
    return static_cast<int>(best);
}

} // namespace

QString ParameterPanel::toolTipFor(const ParameterSpec& spec) const {
    QString range = toQString(spec.describeRange());
    if (!spec.unit.empty())
        range += QLatin1Char(' ') + toQString(spec.unit);
    QStringList grid;
    for (double value : session_.grid().values(spec.id))
        grid << toQString(spec.formatValue(value));
    QString text = QStringLiteral("%1\nRange: %2\n%3: %4\nKey: %5")
                       .arg(toQString(spec.meaning), range,
                            session_.hasDatabase() ? tr("Database grid") : tr("Default grid"),
                            grid.join(QStringLiteral(", ")), toQString(spec.key));
    const QString& inert = rows_[index(spec.id)].inert;
    if (!inert.isEmpty())
        text = tr("No effect now. %1").arg(inert) + QStringLiteral("\n\n") + text;
    return text;
}

ParameterPanel::ParameterPanel(Session& session, QWidget* parent)
    : QWidget(parent), session_(session) {
    content_ = new QWidget;
    auto* column = new QVBoxLayout(content_);
    for (ParamGroup group : {ParamGroup::FrontEnd, ParamGroup::BackEnd, ParamGroup::Memory}) {
        QGroupBox* box = buildGroup(group);
        grids_.push_back(static_cast<QGridLayout*>(box->layout()));
        column->addWidget(box);
    }
    column->addStretch(1);

    scroll_ = new QScrollArea;
    scroll_->setWidget(content_);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    // Vertical scrolling only: a horizontal bar would hide the value labels on the right.
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll_);

    applyGrid();
    connect(&session_, &Session::configChanged, this, &ParameterPanel::showConfig);
    connect(&session_, &Session::databaseOpened, this, &ParameterPanel::applyGrid);
}

void ParameterPanel::applyGrid() {
    const ParameterGrid& grid = session_.grid();
    syncing_ = true;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        const Row& row = rows_[index(spec.id)];
        const int positions = static_cast<int>(grid.size(spec.id));
        row.slider->setRange(0, positions - 1);
        row.slider->setMinimumWidth(std::max(120, 14 * positions));
        row.slider->setToolTip(toolTipFor(spec));
    }
    syncing_ = false;
    forgetShownValues();
    updateMetrics();
    showConfig(session_.config());
}

void ParameterPanel::forgetShownValues() {
    for (Row& row : rows_)
        row.shown = std::numeric_limits<double>::quiet_NaN();
}

void ParameterPanel::updateMetrics() {
    // Reserve room for the widest value so labels are never clipped and the sliders do not jump
    // sideways as the text changes.
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        QLabel* value = rows_[index(spec.id)].value;
        int widest = 0;
        std::vector<double> values = session_.grid().values(spec.id);
        values.insert(values.end(), spec.grid.begin(), spec.grid.end());
        for (double v : values)
            widest = std::max(
                widest, value->fontMetrics().horizontalAdvance(toQString(spec.formatWithUnit(v))));
        value->setMinimumWidth(widest + 4);
    }
    // Each group has its own grid; giving the name and value columns the same width in all of
    // them lines the sliders up across groups, so their lengths can be compared at a glance.
    int nameWidth = 0;
    int valueWidth = 0;
    for (const QGridLayout* grid : grids_)
        for (int row = 0; row < grid->rowCount(); ++row) {
            nameWidth =
                std::max(nameWidth, grid->itemAtPosition(row, 0)->widget()->sizeHint().width());
            valueWidth =
                std::max(valueWidth, grid->itemAtPosition(row, 2)->widget()->minimumWidth());
        }
    for (QGridLayout* grid : grids_) {
        grid->setColumnMinimumWidth(0, nameWidth);
        grid->setColumnMinimumWidth(2, valueWidth);
    }
    scroll_->setMinimumWidth(content_->minimumSizeHint().width() +
                             scroll_->verticalScrollBar()->sizeHint().width());
}

void ParameterPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    // Projector mode changes the application font: value labels (which carry their own italic
    // font) and the reserved widths follow once the new font has reached every child.
    if (event->type() == QEvent::FontChange && scroll_)
        QMetaObject::invokeMethod(
            this,
            [this] {
                forgetShownValues();
                showConfig(session_.config());
                updateMetrics();
            },
            Qt::QueuedConnection);
}

QGroupBox* ParameterPanel::buildGroup(ParamGroup group) {
    auto* box = new QGroupBox(toQString(std::string(groupName(group))));
    box->setObjectName(groupObjectName(group));
    auto* grid = new QGridLayout(box);
    grid->setColumnStretch(1, 1);
    grid->setHorizontalSpacing(10);

    int row = 0;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        if (spec.group != group)
            continue;
        const QString key = toQString(spec.key);

        auto* slider = new QSlider(Qt::Horizontal);
        slider->setObjectName(QStringLiteral("slider_") + key);
        slider->setSingleStep(1);
        slider->setPageStep(1);
        slider->setTickPosition(QSlider::TicksBelow);
        slider->setTickInterval(1);
        slider->setAccessibleName(toQString(spec.label));
        slider->setAccessibleDescription(toQString(spec.meaning));
        // StrongFocus plus the wheel filter: scrolling the panel must not drag sliders under the
        // pointer; a slider takes wheel steps only once the user has clicked or tabbed into it.
        slider->setFocusPolicy(Qt::StrongFocus);
        slider->installEventFilter(this);

        auto* name = new QLabel(toQString(spec.label));
        name->setObjectName(QStringLiteral("label_") + key);
        name->setBuddy(slider);
        name->setToolTip(toQString(spec.meaning));

        auto* value = new QLabel;
        value->setObjectName(QStringLiteral("value_") + key);

        grid->addWidget(name, row, 0);
        grid->addWidget(slider, row, 1);
        grid->addWidget(value, row, 2);
        ++row;

        const ParamId id = spec.id;
        rows_[index(id)] = Row{slider, value, name, 0, {}};
        connect(slider, &QSlider::valueChanged, this,
                [this, id](int position) { onSliderMoved(id, position); });
        connect(slider, &QSlider::sliderPressed, this, &ParameterPanel::dragStarted);
        connect(slider, &QSlider::sliderReleased, this, &ParameterPanel::dragFinished);
        // Right-click: the sweep of this parameter (issue 18).
        slider->setContextMenuPolicy(Qt::ActionsContextMenu);
        auto* sweep = new QAction(tr("Sweep this parameter"), slider);
        sweep->setObjectName(QStringLiteral("sweep_") + key);
        connect(sweep, &QAction::triggered, this, [this, id] { session_.sweep(id); });
        slider->addAction(sweep);
    }
    return box;
}

void ParameterPanel::onSliderMoved(ParamId id, int position) {
    if (syncing_)
        return;
    const double value = session_.grid().values(id).at(static_cast<std::size_t>(position));
    // The Session's configChanged() brings the new value back to the label via showConfig().
    session_.setParameter(id, value);
}

void ParameterPanel::showRelevance(const ParameterSpec& spec, const CoreConfig& config) {
    Row& row = rows_[index(spec.id)];
    const QString why = toQString(ParameterRelevance::whyNoEffect(config, spec.id));
    if (why == row.inert)
        return;
    row.inert = why;
    const bool live = why.isEmpty();
    row.name->setEnabled(live);
    row.slider->setEnabled(live);
    row.value->setEnabled(live);
    row.slider->setToolTip(toolTipFor(spec));
    row.name->setToolTip(live ? toQString(spec.meaning)
                              : tr("No effect now. %1").arg(why) + QStringLiteral("\n\n") +
                                    toQString(spec.meaning));
    row.shown = std::numeric_limits<double>::quiet_NaN(); // its label's tooltip too
}

void ParameterPanel::showConfig(const CoreConfig& config) {
    syncing_ = true;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        const double value = config.value(spec.id);
        Row& row = rows_[index(spec.id)];
        showRelevance(spec, config);
        row.slider->setValue(nearestIndex(session_.grid().values(spec.id), value));
        // Only labels whose value changed: restyling all twenty on every drag step would
        // relayout the panel each time (the live CPI's latency budget is 16 ms).
        if (row.shown != value) {
            showValue(spec.id, value);
            row.shown = value;
        }
    }
    syncing_ = false;
}

void ParameterPanel::showValue(ParamId id, double value) {
    const ParameterSpec& spec = ParameterSpace::spec(id);
    QLabel* label = rows_[index(id)].value;
    label->setText(toQString(spec.formatWithUnit(value)));
    // A preset may hold a value between grid points: show it exactly, in italics, and say why
    // the slider sits at the nearest grid value instead (the prediction uses that value).
    const bool exact = session_.grid().find(id, value).has_value();
    QFont font = this->font();
    font.setItalic(!exact);
    label->setFont(font);
    label->setToolTip(exact ? toolTipFor(spec)
                            : toolTipFor(spec) +
                                  tr("\n\nNot a grid value: the slider shows the nearest grid "
                                     "value, and CPI is predicted there."));
}

bool ParameterPanel::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Wheel) {
        auto* slider = qobject_cast<QSlider*>(watched);
        if (slider && !slider->hasFocus()) {
            event->ignore(); // let the scroll area scroll instead
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace concorde::ui
