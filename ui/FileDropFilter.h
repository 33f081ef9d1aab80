#pragma once

#include <QObject>
#include <QString>

class QMimeData;

namespace concorde::ui {

/// Lets the user drop a file onto a window: a feature database (.sqlite, .sqlite3, .db) emits
/// databaseDropped(), a saved session (.json) emits sessionDropped(). Other drops are refused, so
/// the pointer shows at once that they will not be taken. Install it on the window
/// (installEventFilter), which must accept drops.
class FileDropFilter : public QObject {
    Q_OBJECT

public:
    explicit FileDropFilter(QObject* parent = nullptr);

    /// The local file a drop of `data` would open (empty when it is not one file we accept).
    static QString acceptedFile(const QMimeData* data);

signals:
    void databaseDropped(const QString& path);
    void sessionDropped(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace concorde::ui
