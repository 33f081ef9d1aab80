#pragma once
// Runs one headless export in process, as `concorde-explorer --export` would, and keeps what
// it printed: tests assert on both the exit code and the messages.

#include "HeadlessExport.h"
#include "ViewCatalog.h"
#include "params/PresetLibrary.h"

#include <QString>
#include <QTextStream>

namespace concorde::test {

inline int runHeadlessExport(const ui::HeadlessExport::Request& request,
                             const PresetLibrary& presets, const ui::ViewCatalog& catalog,
                             QString* messages = nullptr) {
    QString text;
    QTextStream err(&text);
    const int code = ui::HeadlessExport::run(request, presets, catalog, err);
    err.flush();
    if (messages)
        *messages = text;
    return code;
}

} // namespace concorde::test
