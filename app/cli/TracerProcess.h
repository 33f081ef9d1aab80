#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace concorde {
class TracerStreamDecoder;
}

namespace concorde::cli {

/// How the ctrace tool is asked to cut the program's run (its --ctrace-* options).
struct TracerRegionSpec {
    std::uint64_t skip = 0;
    std::uint64_t length = 0;
    std::uint64_t warmup = 0; ///< detailed plus functional warm-up records
    std::uint64_t regions = 1;
    std::uint64_t interval = 0;
};

/// One run of a program under the ctrace Valgrind tool, its byte stream fed to a decoder.
/// `concorde trace` runs it once, or twice when it first has to count the program's
/// instructions to spread the regions over the run.
class TracerProcess {
public:
    /// Resolves valgrind, the tool directory and the program; throws a usage or runtime error
    /// naming what is missing.
    explicit TracerProcess(std::vector<std::string> command);

    /// Runs the program with `spec`, feeding everything the tool writes to `decoder`. Returns
    /// the wait status of valgrind. Throws (after killing the tracer) when the stream cannot be
    /// read, the tracer was killed, or the stream stopped before the program finished.
    int run(const TracerRegionSpec& spec, TracerStreamDecoder& decoder) const;

    /// The program's instruction count, from a run that fast-forwards over all of it (no
    /// records are written, so it costs about a tenth of a traced run).
    std::uint64_t countInstructions() const;

private:
    std::vector<std::string> command_;
    std::string program_;
    std::string valgrind_;
    std::filesystem::path tools_;
};

} // namespace concorde::cli
