#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace concorde::ui {

class Session;

/// What the centre shows while a database opens: its name, a progress bar of the regions
/// precomputed so far and a Cancel button ("loading_page", "loading_progress",
/// "loading_cancel").
class DatabaseLoadingPage : public QWidget {
    Q_OBJECT

public:
    explicit DatabaseLoadingPage(Session& session, QWidget* parent = nullptr);

private:
    void start(const QString& path);
    void progress(int done, int total);

    Session& session_;
    QLabel* title_ = nullptr;
    QLabel* detail_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QPushButton* cancel_ = nullptr;
};

} // namespace concorde::ui
