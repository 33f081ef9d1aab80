#pragma once

#include <stdexcept>
#include <string>

namespace concorde {

/// What went wrong, which also decides the command-line exit code.
enum class ErrorKind {
    Usage,    ///< the caller asked for something malformed (exit code 2)
    BadInput, ///< a file or value supplied by the user is invalid (exit code 2)
    Runtime,  ///< the request was valid but could not be carried out (exit code 1)
    Cancelled, ///< the user stopped a long job (Ctrl-C, Cancel); exit code 130, as for SIGINT
};

/// Exit codes of the command-line tools, one per ErrorKind (README "Exit codes").
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitCancelled = 130;

/// The one exception type that core/ throws for expected failures.
/// Messages are written for the end user: they name the file, key or byte offset at fault.
class ConcordeError : public std::runtime_error {
public:
    ConcordeError(ErrorKind kind, const std::string& message)
        : std::runtime_error(message), kind_(kind) {}

    ErrorKind kind() const noexcept { return kind_; }

    /// 2 for usage and bad-input errors, 1 for runtime failures, 130 for a cancelled job.
    int exitCode() const noexcept {
        switch (kind_) {
        case ErrorKind::Runtime:
            return kExitRuntime;
        case ErrorKind::Cancelled:
            return kExitCancelled;
        default:
            return kExitUsage;
        }
    }

private:
    ErrorKind kind_;
};

/// Convenience constructors so call sites read as what they report.
inline ConcordeError usageError(const std::string& message) {
    return ConcordeError(ErrorKind::Usage, message);
}
inline ConcordeError badInput(const std::string& message) {
    return ConcordeError(ErrorKind::BadInput, message);
}
inline ConcordeError runtimeFailure(const std::string& message) {
    return ConcordeError(ErrorKind::Runtime, message);
}
/// A long job stopped because it was asked to (JobControl::cancel, Ctrl-C).
inline ConcordeError jobCancelled(const std::string& message) {
    return ConcordeError(ErrorKind::Cancelled, message);
}

} // namespace concorde
