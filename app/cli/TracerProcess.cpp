#include "TracerProcess.h"

#include "CommonOptions.h"
#include "common/ConcordeError.h"
#include "trace/PipeReader.h"
#include "trace/RecordSink.h"
#include "trace/TracerStreamDecoder.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace concorde::cli {
namespace {

namespace fs = std::filesystem;

fs::path executableDirectory() {
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::current_path() : exe.parent_path();
}

/// The VALGRIND_LIB directory holding the ctrace tool: $CONCORDE_VALGRIND_LIB, else next to the
/// executable in the build tree (../lib/concorde-valgrind) or the install
/// (../lib/concorde/valgrind).
fs::path toolDirectory() {
    if (const char* env = std::getenv("CONCORDE_VALGRIND_LIB"); env && *env)
        return env;
    const fs::path bin = executableDirectory();
    for (const fs::path& candidate : {bin.parent_path() / "lib" / "concorde-valgrind",
                                      bin.parent_path() / "lib" / "concorde" / "valgrind"}) {
        std::error_code ec;
        if (fs::exists(candidate / "ctrace-amd64-linux", ec))
            return candidate;
    }
    throw runtimeFailure("the ctrace Valgrind tool was not found next to " + bin.string() +
                         " (build the 'ctrace' target, or set CONCORDE_VALGRIND_LIB)");
}

/// PROGRAM as execvp would find it, or empty.
std::string findProgram(const std::string& name) {
    const auto executable = [](const fs::path& p) {
        std::error_code ec;
        return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
    };
    if (name.find('/') != std::string::npos)
        return executable(name) ? name : std::string();
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
        if (executable(candidate))
            return candidate.string();
        start = end + 1;
    }
    return {};
}

/// Drops every record: the counting run needs only the stream's END frame.
class DiscardingSink : public RecordSink {
public:
    void beginRegion(std::uint64_t, std::uint64_t) override {}
    void append(const TraceRecord&) override {}
    void endRegion() override {}
};

/// Why no trace was written when Valgrind ended on `signal`: it also ends that way when the
/// traced program dies of an uncaught signal, so the message names both and, for SIGILL, the
/// common cause under Valgrind.
std::string killedMessage(int signal) {
    std::string message = "the traced program or the tracer was killed by signal " +
                          std::to_string(signal) + " (" + ::strsignal(signal) +
                          "); no trace written";
    if (signal == SIGILL)
        message += ". Under Valgrind this usually means an instruction Valgrind 3.19 cannot run "
                   "(its 'unhandled instruction bytes' lines above name it; rdtscp, for one, on a "
                   "CPU that does not advertise it)";
    return message;
}

} // namespace

TracerProcess::TracerProcess(std::vector<std::string> command) : command_(std::move(command)) {
    if (command_.empty())
        throw usageError("trace needs a program after '--'");
    program_ = findProgram(command_.front());
    if (program_.empty())
        throw badInput("program '" + command_.front() + "' not found or not executable");
    tools_ = toolDirectory();
    valgrind_ = findProgram("valgrind");
    if (valgrind_.empty())
        throw runtimeFailure("valgrind is not installed (packaging/install-deps.sh installs it)");
}

int TracerProcess::run(const TracerRegionSpec& spec, TracerStreamDecoder& decoder) const {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw runtimeFailure(std::string("cannot create a pipe: ") + std::strerror(errno));
    std::vector<std::string> argvStrings = {
        valgrind_,
        "--tool=ctrace",
        "-q",
        "--ctrace-fd=" + std::to_string(fds[1]),
        "--ctrace-skip=" + std::to_string(spec.skip),
        "--ctrace-length=" + std::to_string(spec.length),
        "--ctrace-warmup=" + std::to_string(spec.warmup),
        "--ctrace-regions=" + std::to_string(spec.regions),
        "--ctrace-interval=" + std::to_string(spec.regions > 1 ? spec.interval : 0),
        "--",
        program_};
    argvStrings.insert(argvStrings.end(), command_.begin() + 1, command_.end());
    std::vector<char*> argv;
    for (auto& s : argvStrings)
        argv.push_back(s.data());
    argv.push_back(nullptr);

    const pid_t child = ::fork();
    if (child < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw runtimeFailure(std::string("cannot fork: ") + std::strerror(errno));
    }
    if (child == 0) {
        // If concorde dies (SIGKILL while fast-forwarding, when the tool writes nothing and so
        // never notices a closed pipe), take the tracer down with it.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() == 1)
            ::_exit(127);            // the parent died before prctl took effect
        ::fcntl(fds[1], F_SETFD, 0); // the write end survives exec; the read end does not
        ::setenv("VALGRIND_LIB", tools_.c_str(), 1);
        ::execv(valgrind_.c_str(), argv.data());
        ::_exit(127);
    }
    ::close(fds[1]);

    int status = 0;
    try {
        // Read on a second thread, so that the tracer runs while the decoder works.
        PipeReader::drain(
            fds[0], [&](const unsigned char* data, std::size_t size) { decoder.feed(data, size); });
        ::close(fds[0]);
        fds[0] = -1;
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        if (WIFSIGNALED(status))
            throw runtimeFailure(killedMessage(WTERMSIG(status)));
        if (!decoder.complete())
            throw runtimeFailure(
                WIFEXITED(status) && WEXITSTATUS(status) == 127
                    ? "could not start valgrind"
                    : "the tracer stopped before the program finished (exit status " +
                          std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                          "); no trace written");
        decoder.finish();
        return status;
    } catch (...) {
        if (fds[0] >= 0)
            ::close(fds[0]);
        ::kill(child, SIGKILL);
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        throw;
    }
}

std::uint64_t TracerProcess::countInstructions() const {
    DiscardingSink discard;
    TracerStreamDecoder decoder(discard);
    TracerRegionSpec everything;
    everything.skip = std::uint64_t{1} << 62; // past the end of any run: fast-forward only
    everything.length = 1;
    run(everything, decoder);
    return decoder.totalInstructions();
}

} // namespace concorde::cli
