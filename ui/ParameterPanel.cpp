#include "ParameterPanel.h"

#include "Session.h"

#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>

namespace concorde::ui {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

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

QString toolTipFor(const ParameterSpec& spec) {
    QString range = qs(spec.describeRange());
    if (!spec.unit.empty())
        range += QLatin1Char(' ') + qs(spec.unit);
    QStringList grid;
    for (double value : spec.grid)
        grid << qs(spec.formatValue(value));
    return QStringLiteral("%1\nRange: %2\nGrid: %3\nKey: %4")
        .arg(qs(spec.meaning), range, grid.join(QStringLiteral(", ")), qs(spec.key));
}

bool onGrid(const ParameterSpec& spec, double value) {
    return std::find(spec.grid.begin(), spec.grid.end(), value) != spec.grid.end();
}

} // namespace

ParameterPanel::ParameterPanel(Session& session, QWidget* parent)
    : QWidget(parent), session_(session) {
    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);
    std::vector<QGridLayout*> grids;
    for (ParamGroup group : {ParamGroup::FrontEnd, ParamGroup::BackEnd, ParamGroup::Memory}) {
        QGroupBox* box = buildGroup(group);
        grids.push_back(static_cast<QGridLayout*>(box->layout()));
        column->addWidget(box);
    }
    column->addStretch(1);
    alignColumns(grids);

    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Vertical scrolling only: a horizontal bar would hide the value labels on the right.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(content->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width());

    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    showConfig(session_.config());
    connect(&session_, &Session::configChanged, this, &ParameterPanel::showConfig);
}

void ParameterPanel::alignColumns(const std::vector<QGridLayout*>& grids) {
    // Each group has its own grid; giving the name and value columns the same width in all of
    // them lines the sliders up across groups, so their lengths can be compared at a glance.
    int nameWidth = 0;
    int valueWidth = 0;
    for (const QGridLayout* grid : grids)
        for (int row = 0; row < grid->rowCount(); ++row) {
            nameWidth =
                std::max(nameWidth, grid->itemAtPosition(row, 0)->widget()->sizeHint().width());
            valueWidth =
                std::max(valueWidth, grid->itemAtPosition(row, 2)->widget()->minimumWidth());
        }
    for (QGridLayout* grid : grids) {
        grid->setColumnMinimumWidth(0, nameWidth);
        grid->setColumnMinimumWidth(2, valueWidth);
    }
}

QGroupBox* ParameterPanel::buildGroup(ParamGroup group) {
    auto* box = new QGroupBox(qs(std::string(groupName(group))));
    box->setObjectName(groupObjectName(group));
    auto* grid = new QGridLayout(box);
    grid->setColumnStretch(1, 1);
    grid->setHorizontalSpacing(10);

    int row = 0;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        if (spec.group != group)
            continue;
        const QString key = qs(spec.key);
        const QString tip = toolTipFor(spec);

        auto* slider = new QSlider(Qt::Horizontal);
        slider->setObjectName(QStringLiteral("slider_") + key);
        slider->setRange(0, static_cast<int>(spec.grid.size()) - 1);
        slider->setSingleStep(1);
        slider->setPageStep(1);
        slider->setTickPosition(QSlider::TicksBelow);
        slider->setTickInterval(1);
        slider->setMinimumWidth(std::max(120, 14 * static_cast<int>(spec.grid.size())));
        slider->setToolTip(tip);
        slider->setAccessibleName(qs(spec.label));
        slider->setAccessibleDescription(qs(spec.meaning));
        // StrongFocus plus the wheel filter: scrolling the panel must not drag sliders under the
        // pointer; a slider takes wheel steps only once the user has clicked or tabbed into it.
        slider->setFocusPolicy(Qt::StrongFocus);
        slider->installEventFilter(this);

        auto* name = new QLabel(qs(spec.label));
        name->setObjectName(QStringLiteral("label_") + key);
        name->setBuddy(slider);
        name->setToolTip(tip);

        auto* value = new QLabel;
        value->setObjectName(QStringLiteral("value_") + key);
        value->setToolTip(tip);
        // Reserve room for the widest grid value so labels are never clipped and the sliders do
        // not jump sideways as the text changes.
        int widest = 0;
        for (double v : spec.grid)
            widest = std::max(widest,
                              value->fontMetrics().horizontalAdvance(qs(spec.formatWithUnit(v))));
        value->setMinimumWidth(widest + 4);

        grid->addWidget(name, row, 0);
        grid->addWidget(slider, row, 1);
        grid->addWidget(value, row, 2);
        ++row;

        const ParamId id = spec.id;
        rows_[index(id)] = Row{slider, value};
        connect(slider, &QSlider::valueChanged, this,
                [this, id](int position) { onSliderMoved(id, position); });
    }
    return box;
}

void ParameterPanel::onSliderMoved(ParamId id, int position) {
    if (syncing_)
        return;
    const ParameterSpec& spec = ParameterSpace::spec(id);
    const double value = spec.grid.at(static_cast<std::size_t>(position));
    // The Session's configChanged() brings the new value back to the label via showConfig().
    session_.setParameter(id, value);
}

void ParameterPanel::showConfig(const CoreConfig& config) {
    syncing_ = true;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        const double value = config.value(spec.id);
        rows_[index(spec.id)].slider->setValue(static_cast<int>(spec.nearestGridIndex(value)));
        showValue(spec.id, value);
    }
    syncing_ = false;
}

void ParameterPanel::showValue(ParamId id, double value) {
    const ParameterSpec& spec = ParameterSpace::spec(id);
    QLabel* label = rows_[index(id)].value;
    label->setText(qs(spec.formatWithUnit(value)));
    // A preset may hold a value between grid points: show it exactly, in italics, and say why
    // the slider sits at the nearest grid value instead.
    const bool exact = onGrid(spec, value);
    QFont font = label->font();
    font.setItalic(!exact);
    label->setFont(font);
    label->setToolTip(exact ? toolTipFor(spec)
                            : toolTipFor(spec) +
                                  QStringLiteral("\n\nNot a grid value: the slider shows the "
                                                 "nearest grid value."));
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
