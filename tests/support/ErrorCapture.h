#pragma once
// Runs an action that should fail and returns the ConcordeError message it threw (empty when it
// did not throw), optionally with the error's kind, so tests can assert on what users read.

#include "common/ConcordeError.h"

#include <QString>
#include <functional>

namespace concorde::testing {

inline QString errorOf(const std::function<void()>& action, ErrorKind* kind = nullptr) {
    try {
        action();
    } catch (const ConcordeError& e) {
        if (kind)
            *kind = e.kind();
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace concorde::testing
