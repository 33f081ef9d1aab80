#include "DatabaseLoadingPage.h"

#include "Session.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace concorde::ui {

DatabaseLoadingPage::DatabaseLoadingPage(Session& session, QWidget* parent)
    : QWidget(parent), session_(session) {
    setObjectName(QStringLiteral("loading_page"));
    title_ = new QLabel;
    title_->setAlignment(Qt::AlignHCenter);
    QFont font = title_->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.3);
    title_->setFont(font);
    detail_ = new QLabel(tr("Precomputing the predictions of every region…"));
    detail_->setAlignment(Qt::AlignHCenter);
    bar_ = new QProgressBar;
    bar_->setObjectName(QStringLiteral("loading_progress"));
    bar_->setMinimumWidth(360);
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName(QStringLiteral("loading_cancel"));
    connect(cancel_, &QPushButton::clicked, &session_, &Session::cancelOpening);

    auto* column = new QVBoxLayout;
    column->setSpacing(12);
    column->addWidget(title_);
    column->addWidget(detail_);
    column->addWidget(bar_);
    column->addWidget(cancel_, 0, Qt::AlignHCenter);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addLayout(column, 2);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addLayout(row);
    layout->addStretch(2);

    connect(&session_, &Session::databaseOpening, this, &DatabaseLoadingPage::start);
    connect(&session_, &Session::databaseProgress, this, &DatabaseLoadingPage::progress);
}

void DatabaseLoadingPage::start(const QString& path) {
    title_->setText(tr("Opening %1").arg(QFileInfo(path).fileName()));
    title_->setToolTip(path);
    bar_->setRange(0, 0); // busy until the region count is known
}

void DatabaseLoadingPage::progress(int done, int total) {
    if (total <= 0)
        return;
    bar_->setRange(0, total);
    bar_->setValue(done);
    bar_->setFormat(tr("%v of %m regions"));
}

} // namespace concorde::ui
