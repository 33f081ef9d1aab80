#pragma once

#include <QString>
#include <string>

namespace concorde::ui {

/// The core speaks UTF-8 std::string; the widgets speak QString. One conversion for every view.
inline QString toQString(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace concorde::ui
