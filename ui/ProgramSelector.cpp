#include "ProgramSelector.h"

#include "Session.h"
#include "explore/ExplorerModel.h"

namespace concorde::ui {

ProgramSelector::ProgramSelector(Session& session, QWidget* parent)
    : QComboBox(parent), session_(session) {
    setObjectName(QStringLiteral("program_selector"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setMinimumContentsLength(10);
    setToolTip(tr("The program whose CPI the header shows (also: click a bar in the overview)"));
    populate();
    connect(&session_, &Session::databaseOpened, this, &ProgramSelector::populate);
    connect(&session_, &Session::programChanged, this, &ProgramSelector::showSelection);
    connect(this, &QComboBox::activated, this,
            [this](int i) { session_.setProgram(itemData(i).toString()); });
}

void ProgramSelector::populate() {
    clear();
    if (const ExplorerPtr& explorer = session_.explorer()) {
        const ModelAccuracy& accuracy = explorer->accuracy();
        for (const std::string& name : explorer->programs()) {
            const QString program = QString::fromStdString(name);
            addItem(program, program);
            QString tip = tr("%n region(s)", nullptr, int(explorer->regionCount(name)));
            const std::string figure = accuracy.programSummary(name);
            if (!figure.empty())
                tip += QStringLiteral("\n") +
                       tr("Model error on %1").arg(QString::fromStdString(figure));
            setItemData(count() - 1, tip, Qt::ToolTipRole);
        }
    }
    setEnabled(count() > 0);
    showSelection();
}

void ProgramSelector::showSelection() {
    const int i = findData(session_.program());
    if (i >= 0 && i != currentIndex())
        setCurrentIndex(i);
}

} // namespace concorde::ui
