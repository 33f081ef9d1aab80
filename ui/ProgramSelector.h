#pragma once

#include <QComboBox>

namespace concorde::ui {

class Session;

/// Chooses the selected program of the open database ("program_selector"). Each entry's tooltip
/// gives the program's region count and how well the model predicts it. Empty and disabled
/// while no database is open.
class ProgramSelector : public QComboBox {
    Q_OBJECT

public:
    explicit ProgramSelector(Session& session, QWidget* parent = nullptr);

private:
    void populate();
    void showSelection();

    Session& session_;
};

} // namespace concorde::ui
