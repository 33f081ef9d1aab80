#pragma once

#include <cstddef>
#include <functional>

namespace concorde {

/// Reads a pipe to its end on a thread of its own, so that the writer (the ctrace tool) never
/// waits for the consumer (the stream decoder) while there is memory to hold what it wrote.
///
/// Read in the consumer's thread, the two ran in turns rather than together: the tool writes
/// its 8 MB buffer into a 1 MB pipe and stays blocked in write() until the decoder has taken
/// all but the last megabyte, then the decoder waits while the tool fills its buffer again.
/// With functional warm-up the decoder is the slower side (docs/design.md §5), and everything
/// the tool does besides was added to its time (issue 16: tracing cost).
class PipeReader {
public:
    /// Bytes per read and per chunk handed to the consumer.
    static constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
    /// Chunks read ahead of the consumer at most (128 MB with full chunks).
    static constexpr std::size_t kMaxChunks = 128;

    using Consumer = std::function<void(const unsigned char* data, std::size_t size)>;

    /// Calls `consume` with everything read from `fd`, in order, on the caller's thread, until
    /// the end of the stream. Rethrows what `consume` throws (after stopping the reading
    /// thread); a failed read throws a runtime-failure ConcordeError once the bytes before it
    /// are consumed.
    static void drain(int fd, const Consumer& consume);
};

} // namespace concorde
