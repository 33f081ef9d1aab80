#pragma once

#include <QString>

namespace concorde::ui {

class Session;

/// The text of Help ▸ About: the version, then where the open database comes from (file, size,
/// date, what built it, programs, regions, window size) and the model's measured accuracy;
/// without a database, how to open one.
class AboutText {
public:
    static QString html(const Session& session);
};

} // namespace concorde::ui
