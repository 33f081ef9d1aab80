#include "TraceCommand.h"

#include "CommonOptions.h"
#include "TracerProcess.h"
#include "analysis/FunctionalWarmupSink.h"
#include "common/ConcordeError.h"
#include "trace/TraceWriter.h"
#include "trace/TraceWriterSink.h"
#include "trace/TracerProtocol.h"
#include "trace/TracerStreamDecoder.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <optional>
#include <ostream>
#include <sys/wait.h>

namespace concorde::cli {
namespace {

/// Where K regions of M measured instructions go in a run of `total` instructions when the user
/// gave no interval: each in the middle of one of K equal slices of the run, so that the regions
/// sample its beginning, middle and end alike.
TracerRegionSpec spreadRegions(std::uint64_t total, std::uint64_t regions, std::uint64_t length) {
    const std::uint64_t slice = total / regions;
    if (slice < length)
        throw badInput("the program runs " + std::to_string(total) +
                       " instructions: " + std::to_string(regions) + " regions of " +
                       std::to_string(length) + " do not fit; ask for fewer or shorter regions");
    TracerRegionSpec spec;
    spec.skip = (slice - length) / 2;
    spec.length = length;
    spec.regions = regions;
    spec.interval = slice;
    return spec;
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
           "warning is printed. The output appears only when tracing succeeded.\n"
           "With --regions K > 1 and no --interval, the program is run twice: first to count\n"
           "its instructions (fast-forward only), then to trace K regions, each in the middle\n"
           "of one of K equal slices of the run after --skip. The program must do the same\n"
           "work both times; its output appears twice.\n";
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
    app.add_option(
           "--interval", interval_,
           "distance between region starts (default with K > 1: K regions spread over the whole "
           "run, which is counted first)")
        ->type_name("I")
        ->check(wholeNumber());
}

int TraceCommand::run(std::ostream& out, std::ostream& err) {
    const bool spread = regions_ > 1 && interval_ == 0;
    if (regions_ > 1 && (length_ == 0 || (!spread && interval_ < length_)))
        throw usageError("--regions > 1 needs --length M, and --interval I >= M unless the "
                         "regions are spread over the whole run (no --interval)");
    const TracerProcess tracer(command_);

    TracerRegionSpec spec{skip_, length_, warmup_, regions_, interval_};
    out.flush();
    err.flush();
    if (spread) {
        // Two runs: the program must do the same work both times (same input, no timing).
        const std::uint64_t total = tracer.countInstructions();
        spec = spreadRegions(total - std::min(total, skip_), regions_, length_);
        spec.skip += skip_;
        out << "spreading " << regions_ << " regions over " << total << " instructions: first at "
            << spec.skip << ", every " << spec.interval << "\n";
        out.flush();
    }
    spec.warmup = warmup_ + functionalWarmup_;

    TraceInfo info;
    info.source = "tracer";
    std::string commandLine;
    for (const auto& word : command_)
        commandLine += (commandLine.empty() ? "" : " ") + word;
    info.commandLine = commandLine;
    info.properties["skip"] = std::to_string(spec.skip);
    info.properties["length"] = std::to_string(length_);
    info.properties["warmup"] = std::to_string(warmup_);
    info.properties["functional_warmup"] = std::to_string(functionalWarmup_);
    info.properties["regions"] = std::to_string(regions_);
    info.properties["interval"] = std::to_string(spec.interval);
    // The tool is built with this tree, so its analysis is this one (see TracerProtocol.h).
    info.properties["tracer_analysis"] = std::to_string(CTP_ANALYSIS_VERSION);

    TraceWriter writer(output_, info);
    TraceWriterSink writerSink(writer);
    std::optional<FunctionalWarmupSink> warming;
    if (functionalWarmup_ > 0)
        warming.emplace(writerSink, warmup_, functionalWarmup_);
    TracerStreamDecoder decoder(warming ? static_cast<RecordSink&>(*warming) : writerSink);
    const int status = tracer.run(spec, decoder);
    writer.finish();
    if (length_ > 0 && (decoder.regionsCompleted() < regions_ || decoder.lastRegionTruncated()))
        err << "concorde trace: warning: the program ended after " << decoder.totalInstructions()
            << " instructions; " << decoder.regionsCompleted() << " of " << regions_
            << " regions written, the last one shorter than asked\n";
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
}

} // namespace concorde::cli
