#pragma once

#include "common/ConcordeError.h"

#include <cstdint>
#include <string>

namespace concorde {

/// A .ctrace that cannot be read: truncated, corrupted, or of another version.
/// The message names the file and the byte offset where the problem was found.
class TraceFormatError : public ConcordeError {
public:
    TraceFormatError(const std::string& path, std::uint64_t byteOffset, const std::string& problem)
        : ConcordeError(ErrorKind::BadInput, path + ": " + problem + " (at byte offset " +
                                                 std::to_string(byteOffset) + ")"),
          byteOffset_(byteOffset) {}

    std::uint64_t byteOffset() const noexcept { return byteOffset_; }

private:
    std::uint64_t byteOffset_;
};

} // namespace concorde
