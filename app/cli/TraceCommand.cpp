#include "TraceCommand.h"

#include "CommonOptions.h"
#include "analysis/FunctionalWarmupSink.h"
#include "common/ConcordeError.h"
#include "trace/TraceWriter.h"
#include "trace/TraceWriterSink.h"
#include "trace/TracerStreamDecoder.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <ostream>
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

} // namespace

std::string TraceCommand::description() const {
    return "Runs PROGRAM under the ctrace Valgrind tool and writes its instructions to a\n"
           ".ctrace: K regions of M measured instructions, each preceded by W warm-up\n"
           "instructions, the first measured instruction at N and the next ones I apart.\n"
           "Fast-forwarding (the skip and the gaps) only counts instructions per superblock,\n"
           "so it is cheap. Each region records its basic-block vector for phase clustering.\n"
           "Before each region's detailed warm-up, a functional warm-up of F instructions\n"
           "(default 10M) keeps caches, the prefetcher and the branch predictor warm: it is\n"
           "summarised into the region's warm state (the most recent lines of every cache\n"
           "set the parameter space allows, the recent loads, a TAGE snapshot), which every\n"
           "consumer starts from. It is never overlapped with the previous region.\n"
           "PROGRAM's standard output and error pass through; the exit code is PROGRAM's.\n"
           "If PROGRAM ends before a region is complete, the region is kept shorter and a\n"
           "warning is printed. The output appears only when tracing succeeded.\n";
}

void TraceCommand::declare(CLI::App& app) {
    app.add_option("-o", output_, "output trace")->type_name("FILE")->required();
    app.add_option("--skip", skip_, "instructions before the first measured region")
        ->type_name("N")
        ->check(wholeNumber())
        ->capture_default_str();
    app.add_option("--length", length_, "measured instructions per region")
        ->type_name("M")
        ->check(wholeNumber())
        ->default_str("to the end");
    app.add_option("--warmup", warmup_, "warm-up instructions before each region")
        ->type_name("W")
        ->check(wholeNumber())
        ->capture_default_str();
    app.add_option("--functional-warmup", functionalWarmup_,
                   "functional warm-up instructions before each region's detailed warm-up, kept "
                   "as a warm state (0: none, the regions start cold)")
        ->type_name("F")
        ->check(wholeNumber())
        ->capture_default_str();
    app.add_option("--regions", regions_, "number of regions")
        ->type_name("K")
        ->check(wholeNumber(1, 1u << 20))
        ->capture_default_str();
    app.add_option("--interval", interval_, "distance between region starts (required with K > 1)")
        ->type_name("I")
        ->check(wholeNumber());
}

int TraceCommand::run(std::ostream& out, std::ostream& err) {
    if (command_.empty())
        throw usageError("trace needs a program after '--'");
    if (regions_ > 1 && (length_ == 0 || interval_ < length_))
        throw usageError("--regions > 1 needs --length M and --interval I with I >= M");

    const std::string program = findProgram(command_.front());
    if (program.empty())
        throw badInput("program '" + command_.front() + "' not found or not executable");
    const fs::path tools = toolDirectory();
    const std::string valgrind = findProgram("valgrind");
    if (valgrind.empty())
        throw runtimeFailure("valgrind is not installed (packaging/install-deps.sh installs it)");

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw runtimeFailure(std::string("cannot create a pipe: ") + std::strerror(errno));
    std::vector<std::string> argvStrings = {
        valgrind,
        "--tool=ctrace",
        "-q",
        "--ctrace-fd=" + std::to_string(fds[1]),
        "--ctrace-skip=" + std::to_string(skip_),
        "--ctrace-length=" + std::to_string(length_),
        "--ctrace-warmup=" + std::to_string(warmup_ + functionalWarmup_),
        "--ctrace-regions=" + std::to_string(regions_),
        "--ctrace-interval=" + std::to_string(regions_ > 1 ? interval_ : 0),
        "--",
        program};
    argvStrings.insert(argvStrings.end(), command_.begin() + 1, command_.end());
    std::vector<char*> argv;
    for (auto& s : argvStrings)
        argv.push_back(s.data());
    argv.push_back(nullptr);

    out.flush();
    err.flush();
    const pid_t child = ::fork();
    if (child < 0)
        throw runtimeFailure(std::string("cannot fork: ") + std::strerror(errno));
    if (child == 0) {
        // If concorde dies (SIGKILL while fast-forwarding, when the tool writes nothing and so
        // never notices a closed pipe), take the tracer down with it.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() == 1)
            ::_exit(127);            // the parent died before prctl took effect
        ::fcntl(fds[1], F_SETFD, 0); // the write end survives exec; the read end does not
        ::setenv("VALGRIND_LIB", tools.c_str(), 1);
        ::execv(valgrind.c_str(), argv.data());
        ::_exit(127);
    }
    ::close(fds[1]);

    TraceInfo info;
    info.source = "tracer";
    std::string commandLine;
    for (const auto& word : command_)
        commandLine += (commandLine.empty() ? "" : " ") + word;
    info.commandLine = commandLine;
    info.properties["skip"] = std::to_string(skip_);
    info.properties["length"] = std::to_string(length_);
    info.properties["warmup"] = std::to_string(warmup_);
    info.properties["functional_warmup"] = std::to_string(functionalWarmup_);
    info.properties["regions"] = std::to_string(regions_);
    info.properties["interval"] = std::to_string(interval_);

    int status = 0;
    try {
        TraceWriter writer(output_, info);
        TraceWriterSink writerSink(writer);
        std::optional<FunctionalWarmupSink> warming;
        if (functionalWarmup_ > 0)
            warming.emplace(writerSink, warmup_, functionalWarmup_);
        TracerStreamDecoder decoder(warming ? static_cast<RecordSink&>(*warming) : writerSink);
        std::vector<unsigned char> chunk(1 << 20);
        for (;;) {
            const ssize_t got = ::read(fds[0], chunk.data(), chunk.size());
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                throw runtimeFailure(std::string("reading the tracer: ") + std::strerror(errno));
            if (got == 0)
                break;
            decoder.feed(chunk.data(), static_cast<std::size_t>(got));
        }
        ::close(fds[0]);
        fds[0] = -1;
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        if (WIFSIGNALED(status))
            throw runtimeFailure("the tracer was killed by signal " +
                                 std::to_string(WTERMSIG(status)) + "; no trace written");
        if (!decoder.complete())
            throw runtimeFailure(
                WIFEXITED(status) && WEXITSTATUS(status) == 127
                    ? "could not start valgrind"
                    : "the tracer stopped before the program finished (exit status " +
                          std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                          "); no trace written");
        decoder.finish();
        writer.finish();
        if (length_ > 0 && (decoder.regionsCompleted() < regions_ || decoder.lastRegionTruncated()))
            err << "concorde trace: warning: the program ended after "
                << decoder.totalInstructions() << " instructions; " << decoder.regionsCompleted()
                << " of " << regions_ << " regions written, the last one shorter than asked\n";
        if (decoder.unresolvedBranches() > 0)
            err << "concorde trace: warning: " << decoder.unresolvedBranches()
                << " branch outcomes could not be determined (thread switches)\n";
        const std::uint64_t functional = warming ? warming->functionalRecords() : 0;
        out << "traced " << decoder.recordsWritten() - functional << " instructions (of "
            << decoder.totalInstructions() << " executed) in " << decoder.regionsCompleted()
            << " regions to " << output_ << "\n";
        if (warming)
            out << "functional warm-up: " << functional << " instructions summarised in "
                << warming->warmStateBytes() << " bytes of warm state\n";
        // Valgrind exits with the traced program's exit code.
        return WIFEXITED(status) ? WEXITSTATUS(status) : decoder.programExitCode();
    } catch (...) {
        if (fds[0] >= 0)
            ::close(fds[0]);
        ::kill(child, SIGKILL);
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        throw;
    }
}

} // namespace concorde::cli
