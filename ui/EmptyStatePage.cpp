#include "EmptyStatePage.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace concorde::ui {
namespace {

// Long lines are hard to read; keep the text column about as wide as a paragraph in a book.
constexpr int kTextWidth = 560;

QLabel* makeTextLabel(const QString& objectName) {
    auto* label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignHCenter);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

EmptyStatePage::EmptyStatePage(const QString& title, const QString& message, QWidget* parent)
    : QWidget(parent), title_(makeTextLabel(QStringLiteral("empty_title"))),
      message_(makeTextLabel(QStringLiteral("empty_message"))), command_(new QLabel),
      hint_(makeTextLabel(QStringLiteral("empty_hint"))) {
    QFont titleFont = title_->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.5);
    titleFont.setBold(true);
    title_->setFont(titleFont);
    title_->setTextFormat(Qt::PlainText);
    message_->setTextFormat(Qt::PlainText);
    command_->setTextFormat(Qt::PlainText);
    title_->setText(title);
    message_->setText(message);

    command_->setObjectName(QStringLiteral("empty_command"));
    command_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    command_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    command_->setFrameShape(QFrame::StyledPanel);
    command_->setMargin(8);
    command_->setBackgroundRole(QPalette::Base);
    command_->setAutoFillBackground(true);
    command_->hide();
    hint_->hide();

    // The text sits in a column of fixed maximum width, centred in the page: word-wrapped labels
    // then wrap at the column width instead of at their (too narrow) size hints.
    auto* column = new QWidget;
    column->setMaximumWidth(kTextWidth);
    auto* text = new QVBoxLayout(column);
    text->setContentsMargins(0, 0, 0, 0);
    text->setSpacing(12);
    text->addWidget(title_);
    text->addWidget(message_);
    text->addWidget(command_, 0, Qt::AlignHCenter);
    text->addWidget(hint_);

    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(column, 4);
    row->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addLayout(row);
    layout->addStretch(2); // sit a little above centre, where the eye expects it
}

void EmptyStatePage::setCommand(const QString& command) {
    command_->setText(command);
    command_->setVisible(!command.isEmpty());
}

void EmptyStatePage::setHint(const QString& hint) {
    hint_->setText(hint);
    hint_->setVisible(!hint.isEmpty());
}

QString EmptyStatePage::title() const {
    return title_->text();
}
QString EmptyStatePage::message() const {
    return message_->text();
}
QString EmptyStatePage::command() const {
    return command_->text();
}
QString EmptyStatePage::hint() const {
    return hint_->text();
}

} // namespace concorde::ui
