#include "refsim/DiagnosticSuite.h"

#include "analysis/SimplePredictor.h"
#include "params/CoreConfig.h"
#include "refsim/OutOfOrderCore.h"
#include "trace/synthetic/KernelCatalog.h"
#include "trace/synthetic/MicrobenchKernel.h"
#include "trace/synthetic/VectorSink.h"

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

namespace concorde {
namespace {

using Params = std::map<std::string, std::string>;

struct Kernel {
    std::vector<TraceRecord> records;
    std::size_t warmup = 0;
    std::span<const TraceRecord> measured() const {
        return std::span<const TraceRecord>(records).subspan(warmup);
    }
};

Kernel makeKernel(const std::string& name, const Params& params, std::uint64_t iterations) {
    static const synthetic::KernelCatalog catalog;
    const auto& kernel = catalog.require(name);
    synthetic::VectorSink sink;
    kernel.generate(kernel.resolve(params), iterations, sink);
    Kernel result;
    result.warmup = static_cast<std::size_t>(sink.regions().front().warmup);
    result.records = sink.takeRecords();
    return result;
}

/// Commit cycle of every measured instruction, and the mispredictions.
class CommitRecorder : public SimulationListener {
public:
    void onStart(std::uint64_t instructions) override { commit.assign(instructions, 0); }
    void onCommit(const CommitEvent& event) override { commit[event.index] = event.cycle; }
    void onMispredict(const MispredictEvent& event) override {
        ++mispredicts;
        mispredicted.push_back(event.index);
    }
    void onRedirect(const RedirectEvent&) override { ++redirects; }
    std::vector<std::uint64_t> commit;
    std::uint64_t mispredicts = 0;
    std::uint64_t redirects = 0; ///< BTB misses redirected at decode
    std::vector<std::uint64_t> mispredicted;
};

/// Every parameter at the largest value of its grid, perfect prediction: nothing binds unless a
/// check narrows it (the `big` preset, built here so the suite needs no files).
CoreConfig widest() {
    CoreConfig config;
    for (const auto& spec : ParameterSpace::all())
        config.set(spec.id, spec.grid.back());
    config.set(ParamId::BranchPredictor, 0);
    config.set(ParamId::BpMissPct, 0);
    return config;
}

/// Every parameter at the smallest value of its grid (simple predictor at 0 %).
CoreConfig narrowest() {
    CoreConfig config;
    for (const auto& spec : ParameterSpace::all())
        config.set(spec.id, spec.grid.front());
    config.set(ParamId::BranchPredictor, 0);
    config.set(ParamId::BpMissPct, 0);
    return config;
}

CoreConfig with(CoreConfig config, const std::string& assignments) {
    std::size_t start = 0;
    while (start < assignments.size()) {
        std::size_t end = assignments.find(' ', start);
        if (end == std::string::npos)
            end = assignments.size();
        if (end > start)
            config.applyAssignment(assignments.substr(start, end - start));
        start = end + 1;
    }
    return config;
}

class Runner {
public:
    Runner(const PipelineSpec& pipeline, const MemorySystemSpec& memory,
           const LatencyTable& latencies,
           const std::function<void(const DiagnosticCheck&)>& progress,
           std::vector<DiagnosticCheck>& out)
        : pipeline_(pipeline), memory_(memory), latencies_(latencies), progress_(progress),
          out_(out) {}

    CommitRecorder simulate(const Kernel& kernel, const CoreConfig& config) const {
        return simulate(kernel, config, pipeline_);
    }
    /// With another pipeline, for checks that must switch a structure off to isolate theirs.
    CommitRecorder simulate(const Kernel& kernel, const CoreConfig& config,
                            const PipelineSpec& pipeline) const {
        OutOfOrderCore core(config, memory_, pipeline, latencies_);
        CommitRecorder recorder;
        core.addListener(recorder);
        core.run(kernel.records, kernel.warmup);
        return recorder;
    }

    /// Matching instructions per cycle over (about) the second half of the measured
    /// instructions. `period` is the kernel's loop length: the interval spans whole iterations,
    /// so instructions that commit in bursts (a whole iteration at once) count exactly.
    template <typename Predicate>
    static double steadyRate(const Kernel& kernel, const CommitRecorder& timing,
                             Predicate&& matches, std::size_t period = 1) {
        const auto measured = kernel.measured();
        const std::size_t last = measured.size() - 1;
        const std::size_t span = (last - measured.size() / 2) / period * period;
        const std::size_t mid = last - span;
        std::size_t count = 0;
        for (std::size_t i = mid + 1; i <= last; ++i)
            count += matches(measured[i]) ? 1 : 0;
        const double cycles = static_cast<double>(timing.commit[last] - timing.commit[mid]);
        return cycles > 0 ? static_cast<double>(count) / cycles : 0.0;
    }

    static double cyclesPerInstruction(const Kernel& kernel, const CommitRecorder& timing,
                                       std::size_t period = 1) {
        return 1.0 / steadyRate(
                         kernel, timing, [](const TraceRecord&) { return true; }, period);
    }

    void report(DiagnosticCheck check) {
        check.passed = check.atLeast
                           ? check.measured >= check.configured
                           : std::fabs(check.measured - check.configured) <= check.tolerance;
        if (progress_)
            progress_(check);
        out_.push_back(std::move(check));
    }

    const PipelineSpec& pipeline_;
    const MemorySystemSpec& memory_;
    const LatencyTable& latencies_;
    const std::function<void(const DiagnosticCheck&)>& progress_;
    std::vector<DiagnosticCheck>& out_;
};

bool isClass(const TraceRecord& r, InstrClass cls) {
    return r.instrClass == cls;
}

void latencyChecks(Runner& run) {
    const std::vector<std::pair<std::string, InstrClass>> classes = {
        {"int-alu", InstrClass::IntAlu}, {"int-mul", InstrClass::IntMul},
        {"int-div", InstrClass::IntDiv}, {"fp-add", InstrClass::FpAdd},
        {"fp-mul", InstrClass::FpMul},   {"fp-div", InstrClass::FpDiv},
        {"simd", InstrClass::Simd}};
    for (const auto& [name, cls] : classes) {
        const Kernel kernel = makeKernel("chain-" + name, {}, cls == InstrClass::IntDiv ? 60 : 200);
        for (const auto& [label, config] : {std::pair{"widest grid values", widest()},
                                            std::pair{"narrowest grid values", narrowest()}}) {
            const auto timing = run.simulate(kernel, config);
            const double rate = Runner::steadyRate(
                kernel, timing, [c = cls](const TraceRecord& r) { return isClass(r, c); }, 65);
            run.report({"latency", name + " latency", label, "cycles",
                        double(run.latencies_.latency(cls)), 1.0 / rate, 0.5, false,
                        "dependent chain: cycles per chained op in steady state"});
        }
    }
}

void loadToUseChecks(Runner& run) {
    const MemorySystemSpec& spec = run.memory_;
    const auto perLoad = [&](const Kernel& kernel, const CoreConfig& config) {
        const auto timing = run.simulate(kernel, config);
        return 1.0 / Runner::steadyRate(
                         kernel, timing, [](const TraceRecord& r) { return r.loadCount > 0; }, 65);
    };
    // L1: a chase inside 4 kB.
    run.report({"load-to-use", "L1 load-to-use", "chain-load ws_kb=4, widest", "cycles",
                double(spec.latency(MemLevel::L1)),
                perLoad(makeKernel("chain-load", {}, 200), widest()), 0.5, false,
                "pointer chase: cycles per load"});
    // L2: 256 kB chased through a 16 kB L1 into a 2 MB L2.
    run.report({"load-to-use", "L2 load-to-use", "pointer-chase ws_kb=256, l1d_kb=16 l2_kb=2048",
                "cycles", double(spec.latency(MemLevel::L2)),
                perLoad(makeKernel("pointer-chase", {{"ws_kb", "256"}}, 2),
                        with(widest(), "l1d_kb=16 l2_kb=2048 pf_degree=0")),
                0.5, false, "pointer chase: cycles per load"});
    // LLC: 2 MB through a 256 kB L2 into the 4 MB LLC.
    run.report({"load-to-use", "LLC load-to-use", "pointer-chase ws_kb=2048, l1d_kb=16 l2_kb=256",
                "cycles", double(spec.latency(MemLevel::Llc)),
                perLoad(makeKernel("pointer-chase", {{"ws_kb", "2048"}}, 2),
                        with(widest(), "l1d_kb=16 l2_kb=256 pf_degree=0")),
                0.5, false, "pointer chase: cycles per load"});
    // DRAM: the rob-knee kernel with no fillers is two chains of loads to never-touched lines;
    // each iteration waits for one DRAM access.
    const Kernel dram = makeKernel("rob-knee", {{"fillers", "0"}}, 400);
    const auto timing = run.simulate(dram, with(widest(), "pf_degree=0"));
    const double perIteration = 3.0 * Runner::cyclesPerInstruction(dram, timing, 3);
    run.report({"load-to-use", "DRAM load-to-use", "rob-knee fillers=0, pf_degree=0, widest",
                "cycles", double(spec.latency(MemLevel::Dram)), perIteration, 0.5, false,
                "chain of misses to new lines: cycles per iteration"});
}

void widthChecks(Runner& run) {
    struct WidthCase {
        std::string key;
        std::string streamClass;
        std::vector<int> values;
        std::string extra;
        std::function<bool(const TraceRecord&)> counts;
        std::function<double(int)> expected;
    };
    const auto all = [](const TraceRecord&) { return true; };
    const auto ofClass = [](InstrClass c) {
        return [c](const TraceRecord& r) { return r.instrClass == c; };
    };
    const auto same = [](int w) { return double(w); };
    const std::vector<WidthCase> cases = {
        {"alu_issue", "int-alu", {1, 3, 8}, "", all, same},
        {"fp_issue", "fp-add", {1, 3, 8}, "", ofClass(InstrClass::FpAdd), same},
        {"ls_issue", "load", {1, 2, 8}, "ls_pipes=8 load_pipes=0", ofClass(InstrClass::Load), same},
        {"ls_pipes", "store", {1, 2, 8}, "ls_issue=8", ofClass(InstrClass::Store), same},
        {"load_pipes",
         "load",
         {0, 1, 3},
         "ls_pipes=1 ls_issue=8",
         ofClass(InstrClass::Load),
         [](int w) { return double(w + 1); }},
        // Nops need no execution unit, so the front-end and commit widths can exceed every
        // issue width.
        {"commit_width", "nop", {1, 5, 12}, "", all, same},
        // Front-end widths above 12 (the largest commit width) cannot show in throughput: they
        // are checked up to 12.
        {"fetch_width", "nop", {1, 3, 12}, "", all, same},
        {"decode_width", "nop", {1, 6, 12}, "", all, same},
        {"rename_width", "nop", {1, 6, 12}, "", all, same},
    };
    for (const auto& c : cases) {
        // 239 ops + the loop jump: 240 instructions per iteration, divisible by every width.
        const Kernel kernel =
            makeKernel("independent", {{"class", c.streamClass}, {"unroll", "239"}}, 200);
        for (int value : c.values) {
            const std::string setting =
                c.key + "=" + std::to_string(value) + (c.extra.empty() ? "" : " " + c.extra);
            const auto timing = run.simulate(kernel, with(widest(), setting));
            run.report({"width", c.key, setting + " on widest", "instr/cycle", c.expected(value),
                        Runner::steadyRate(kernel, timing, c.counts, 240), 0.5, false,
                        "independent " + c.streamClass + " stream: ops per cycle"});
        }
    }
}

void kneeChecks(Runner& run) {
    struct KneeCase {
        std::string kernel;
        std::string key;
        int fillers;
        int offset; ///< knee = fillers + offset
    };
    const std::vector<KneeCase> cases = {
        {"rob-knee", "rob", 14, 2}, {"rob-knee", "rob", 126, 2}, {"rob-knee", "rob", 1000, 2},
        {"lq-knee", "lq", 6, 2},    {"lq-knee", "lq", 62, 2},    {"lq-knee", "lq", 250, 2},
        {"sq-knee", "sq", 8, 0},    {"sq-knee", "sq", 64, 0},    {"sq-knee", "sq", 250, 0},
    };
    const double dram = run.memory_.latency(MemLevel::Dram);
    for (const auto& c : cases) {
        const int expected = c.fillers + c.offset;
        const auto& spec = ParameterSpace::spec(ParameterSpace::require(c.key));
        const Kernel kernel = makeKernel(c.kernel, {{"fillers", std::to_string(c.fillers)}}, 60);
        const double perIteration = 2.0 * c.fillers + 3.0;
        // The knee: the smallest size at which the two misses of an iteration overlap.
        int measured = -1;
        const int from = std::max<int>(static_cast<int>(spec.min), expected - 4);
        const int to = std::min<int>(static_cast<int>(spec.max), expected + 4);
        for (int size = from; size <= to && measured < 0; ++size) {
            const auto timing =
                run.simulate(kernel, with(widest(), c.key + "=" + std::to_string(size)));
            if (Runner::cyclesPerInstruction(kernel, timing, std::size_t(perIteration)) *
                    perIteration <
                1.5 * dram)
                measured = size;
        }
        run.report({"knee", c.key + " knee",
                    c.kernel + " fillers=" + std::to_string(c.fillers) + ", " + c.key + " swept " +
                        std::to_string(from) + ".." + std::to_string(to),
                    "entries", double(expected), double(measured), 1.0, false,
                    "smallest size where the two misses of an iteration overlap"});
    }
}

void capacityChecks(Runner& run) {
    struct CapacityCase {
        std::string key;
        int kb;
        std::string base; ///< other settings
        MemLevel hitLevel;
    };
    const std::vector<CapacityCase> cases = {
        {"l1d_kb", 16, "pf_degree=0", MemLevel::L1},
        {"l1d_kb", 64, "pf_degree=0", MemLevel::L1},
        {"l1d_kb", 256, "pf_degree=0", MemLevel::L1},
        {"l2_kb", 256, "l1d_kb=16 pf_degree=0", MemLevel::L2},
        {"l2_kb", 1024, "l1d_kb=16 pf_degree=0", MemLevel::L2},
        {"llc (fixed)", 4096, "l1d_kb=16 l2_kb=512 pf_degree=0", MemLevel::Llc},
    };
    for (const auto& c : cases) {
        const std::string setting =
            c.base + (c.key == "llc (fixed)" ? "" : " " + c.key + "=" + std::to_string(c.kb));
        const CoreConfig config = with(widest(), setting);
        const double limit = run.memory_.latency(c.hitLevel) + 0.5;
        int largestFitting = 0;
        for (int ws : {c.kb / 2, c.kb, c.kb + c.kb / 4, c.kb * 2}) {
            const Kernel kernel = makeKernel("pointer-chase", {{"ws_kb", std::to_string(ws)}}, 2);
            const auto timing = run.simulate(kernel, config);
            const double perLoad =
                1.0 / Runner::steadyRate(kernel, timing,
                                         [](const TraceRecord& r) { return r.loadCount > 0; });
            if (perLoad <= limit)
                largestFitting = ws;
        }
        run.report({"capacity", c.key + " capacity", setting + ", chase of 0.5/1/1.25/2x", "kB",
                    double(c.kb), double(largestFitting), 0, false,
                    "largest working set whose chase hits at that level"});
    }
}

void frontEndChecks(Runner& run) {
    // Misprediction penalty: the same random-branch loop with the simple predictor at 20 % and
    // 0 %; extra cycles per misprediction. The kernel's branch reads the flags of the compare
    // just before it (int-alu, 1 cycle), so it resolves one cycle after the operands-ready
    // minimum; a branch that was taken would have ended its fetch group anyway, so it loses
    // one cycle less. Expected = mean over mispredictions of (penalty + 1 - taken).
    const Kernel branches = makeKernel("branch-random", {}, 4000);
    const double compareLatency = run.latencies_.latency(InstrClass::IntAlu);
    for (const auto& [label, base] :
         {std::pair{"widest", widest()},
          std::pair{"fetch_width=4 on widest", with(widest(), "fetch_width=4")}}) {
        const auto perfect = run.simulate(branches, base);
        const auto missing = run.simulate(branches, with(base, "bp_miss_pct=20"));
        const auto measured = branches.measured();
        const double extra = double(missing.commit.back()) - double(perfect.commit.back());
        const double penalty = missing.mispredicts ? extra / double(missing.mispredicts) : 0.0;
        double expected = 0;
        for (std::uint64_t index : missing.mispredicted)
            expected += run.pipeline_.minimumMispredictPenalty() + compareLatency -
                        (measured[index].taken ? 1.0 : 0.0);
        expected /= double(std::max<std::size_t>(missing.mispredicted.size(), 1));
        run.report({"mispredict", "misprediction penalty",
                    std::string("branch-random, bp=simple 20 % vs 0 %, ") + label, "cycles",
                    expected, penalty, 0.01, false,
                    "extra cycles per misprediction (" + std::to_string(missing.mispredicts) +
                        " mispredictions in " + std::to_string(measured.size()) +
                        " instructions); minimum penalty " +
                        std::to_string(run.pipeline_.minimumMispredictPenalty())});
    }

    // I-cache fills and fetch buffers: a code footprint of 8 MB (one taken jump per line)
    // misses to DRAM on every line, so lines per cycle × DRAM latency = lines in flight. Its
    // 131072 jumps would also miss any BTB and stop fetch at each one until decode, hiding the
    // fill limit: these checks run with a perfect BTB (the branch-target group checks the BTB).
    const Kernel code =
        makeKernel("taken-groups", {{"group", "2"}, {"groups", "131072"}, {"warmup", "1"}}, 1);
    const double dram = run.memory_.latency(MemLevel::Dram);
    PipelineSpec perfectBtb = run.pipeline_;
    perfectBtb.targets.btbEntries = 0;
    const auto linesInFlight = [&](const CoreConfig& config) {
        const auto timing = run.simulate(code, config, perfectBtb);
        return dram *
               Runner::steadyRate(code, timing, [](const TraceRecord& r) { return r.taken; });
    };
    for (int fills : {1, 8, 32})
        run.report({"front-end", "icache_fills limit",
                    "icache_fills=" + std::to_string(fills) + " fetch_buffers=32, 8 MB of code",
                    "misses", double(fills),
                    linesInFlight(
                        with(widest(), "fetch_buffers=32 icache_fills=" + std::to_string(fills))),
                    0.5, false, "lines per cycle × DRAM latency"});
    for (int buffers : {1, 4, 16})
        run.report({"front-end", "fetch_buffers limit",
                    "fetch_buffers=" + std::to_string(buffers) + " icache_fills=32, 8 MB of code",
                    "lines", double(buffers),
                    linesInFlight(
                        with(widest(), "icache_fills=32 fetch_buffers=" + std::to_string(buffers))),
                    0.5, false, "lines per cycle × DRAM latency"});
}

void branchTargetChecks(Runner& run) {
    const BranchTargetSpec& targets = run.pipeline_.targets;
    const double penalty = run.pipeline_.minimumMispredictPenalty();

    // BTB: btb-footprint's jumps are 4 bytes apart, so they fill the BTB's sets in turn. At
    // `ways` jumps per set all hit once warm (CPI 1: one taken jump per cycle); one more per set
    // and true LRU evicts each before its next use, so all miss and each costs the bubble.
    if (targets.btbEntries > 0) {
        const std::uint32_t sets = targets.btbEntries / targets.btbWays;
        const double bubble = run.pipeline_.btbMissBubble();
        for (const std::uint32_t branches :
             {targets.btbEntries, targets.btbEntries + sets, 2 * targets.btbEntries}) {
            const bool fits = branches <= targets.btbEntries;
            const std::uint64_t iterations = std::max<std::uint64_t>(4, 60'000 / branches);
            const Kernel kernel =
                makeKernel("btb-footprint", {{"branches", std::to_string(branches)}}, iterations);
            const auto timing = run.simulate(kernel, widest());
            const std::string setting = "btb-footprint branches=" + std::to_string(branches) +
                                        " (" + std::to_string(targets.btbEntries) + " entries, " +
                                        std::to_string(targets.btbWays) + " ways), widest";
            run.report({"branch-target", "BTB footprint", setting, "cycles/jump",
                        fits ? 1.0 : 1.0 + bubble,
                        Runner::cyclesPerInstruction(kernel, timing, branches), 0.02, false,
                        "taken jumps only: steady cycles per jump; a BTB miss costs the "
                        "decode-redirect bubble of " +
                            std::to_string(run.pipeline_.btbMissBubble())});
            run.report({"branch-target", "BTB misses per jump", setting, "misses/jump",
                        fits ? 0.0 : 1.0,
                        double(timing.redirects) / double(kernel.measured().size()), 0.0, false,
                        "decode redirects ÷ measured jumps"});
        }
    }

    // Return stack: call-depth nests d calls from distinct sites, so a stack of R < d entries
    // loses the d − R outermost return addresses; each such return is a full misprediction
    // (ready operands: the minimum penalty P, where a right taken return takes one cycle).
    if (targets.rasEntries > 0) {
        for (const std::uint32_t depth : {targets.rasEntries, targets.rasEntries + 8}) {
            const std::uint64_t period = 2 * depth + 1;
            const std::uint64_t iterations = std::max<std::uint64_t>(200, 40'000 / period);
            const Kernel kernel =
                makeKernel("call-depth", {{"depth", std::to_string(depth)}}, iterations);
            const auto timing = run.simulate(kernel, widest());
            const double wrong = depth > targets.rasEntries ? depth - targets.rasEntries : 0;
            const std::string setting = "call-depth depth=" + std::to_string(depth) + " (" +
                                        std::to_string(targets.rasEntries) +
                                        "-entry return stack), widest";
            run.report({"branch-target", "returns mispredicted", setting, "returns", wrong,
                        double(timing.mispredicts) / double(iterations), 0.0, false,
                        "mispredictions ÷ iterations"});
            run.report({"branch-target", "return-stack overflow", setting, "cycles/iteration",
                        double(period) + wrong * (penalty - 1.0),
                        double(period) * Runner::cyclesPerInstruction(kernel, timing, period), 0.05,
                        false,
                        "2d + 1 taken branches, plus P − 1 per mispredicted return (P = " +
                            std::to_string(run.pipeline_.minimumMispredictPenalty()) + ")"});
        }
    }

    // Indirect targets: indirect-dispatch with 8 handlers takes 2 fetch cycles per dispatch
    // with right targets, plus P − 1 per wrong one. Its cyclic order is fully learnt with two or
    // more targets of history (half the dispatches are wrong with one, all with none); a random
    // order is right 1 time in 8 whatever the predictor.
    if (targets.indirectEntries > 0) {
        const double learnt = targets.indirectHistory >= 2   ? 0.0
                              : targets.indirectHistory == 1 ? 0.5
                                                             : 1.0;
        const std::uint64_t dispatches = 20'000;
        for (const auto& [pattern, expectedWrong, tolerance] :
             {std::tuple{"cyclic", learnt, 0.0}, std::tuple{"random", 7.0 / 8.0, 0.01}}) {
            const Kernel kernel = makeKernel("indirect-dispatch",
                                             {{"handlers", "8"}, {"pattern", pattern}}, dispatches);
            const auto timing = run.simulate(kernel, widest());
            const double wrong = double(timing.mispredicts) / double(dispatches);
            const std::string setting = std::string("indirect-dispatch handlers=8 pattern=") +
                                        pattern + " (history " +
                                        std::to_string(targets.indirectHistory) + "), widest";
            run.report({"branch-target", "wrong dispatch targets", setting, "fraction",
                        expectedWrong, wrong, tolerance, false,
                        "mispredictions ÷ dispatches (random: binomial, σ ≈ 0.0023)"});
            run.report({"branch-target", "indirect mispredict cost", setting, "cycles/dispatch",
                        2.0 + wrong * (penalty - 1.0),
                        3.0 * Runner::cyclesPerInstruction(kernel, timing, 3), 0.05, false,
                        "2 fetch cycles per dispatch plus P − 1 per measured wrong target"});
        }
    }
}

void memoryChecks(Runner& run) {
    // MSHRs: independent loads to 8 MB (every line misses to DRAM, prefetcher off): loads per
    // cycle × DRAM latency = misses in flight.
    const Kernel stream = makeKernel("stride-load", {{"ws_kb", "8192"}}, 1);
    const auto timing = run.simulate(stream, with(widest(), "pf_degree=0"));
    const double inFlight =
        run.memory_.latency(MemLevel::Dram) *
        Runner::steadyRate(stream, timing, [](const TraceRecord& r) { return r.loadCount > 0; });
    run.report({"memory", "L1d MSHR limit", "stride-load ws_kb=8192, pf_degree=0, widest", "misses",
                double(run.pipeline_.l1dMshrs), inFlight, 0.5, false,
                "loads per cycle × DRAM latency"});

    // Prefetches take MSHRs: with the prefetcher at its largest degree the same stream still
    // has exactly l1dMshrs lines in flight (prefetched or demanded, each line is one fill).
    const auto prefetched = run.simulate(stream, with(widest(), "pf_degree=8"));
    run.report({"memory", "L1d MSHR limit with prefetches",
                "stride-load ws_kb=8192, pf_degree=8, widest", "misses",
                double(run.pipeline_.l1dMshrs),
                run.memory_.latency(MemLevel::Dram) *
                    Runner::steadyRate(stream, prefetched,
                                       [](const TraceRecord& r) { return r.loadCount > 0; }),
                0.5, false, "loads per cycle × DRAM latency (prefetches compete for MSHRs)"});

    // Where the window, not the MSHRs, limits the misses in flight, prefetching still pays.
    // One static load walking lines (unroll=1, so the prefetcher sees a stride of one line).
    // With 4 LQ entries the demand loads alone keep 4 misses in flight: a load dispatches when
    // the one 4 older commits, so 4 loads per (DRAM latency + 1) cycles. A degree-8 prefetcher
    // fetches line k + 8 when load k issues, so load k + 4 dispatches when the line of load k,
    // prefetched by load k − 8, arrives: 12 loads per (DRAM latency + 1) cycles, 3x as fast,
    // as long as lq + degree ≤ l1dMshrs.
    const Kernel walk = makeKernel("stride-load", {{"ws_kb", "4096"}, {"unroll", "1"}}, 1);
    const CoreConfig narrowWindow = with(widest(), "lq=4 pf_degree=0");
    const auto demandOnly = run.simulate(walk, narrowWindow);
    const auto withPrefetch = run.simulate(walk, with(narrowWindow, "pf_degree=8"));
    const double expectedInFlight =
        std::min<double>(run.pipeline_.l1dMshrs, narrowWindow.loadQueue() + 8);
    const double speedup = double(demandOnly.commit.back()) / double(withPrefetch.commit.back());
    run.report({"memory", "prefetcher on vs off",
                "stride-load ws_kb=4096 unroll=1, lq=4, pf_degree 8 vs 0", "x faster",
                expectedInFlight / narrowWindow.loadQueue(), speedup, 0.25, false,
                "cycles with the prefetcher off ÷ cycles with degree 8; expected (lq + degree) / "
                "lq lines in flight"});
}

void storeChecks(Runner& run) {
    const double dram = run.memory_.latency(MemLevel::Dram);
    // An SQ entry holds a store from dispatch until it is written: issue (dispatchToIssue),
    // execute (store latency), commit, one cycle to the store buffer's L1d port, then the
    // read-for-ownership from DRAM.
    const double residency = run.pipeline_.dispatchToIssueCycles +
                             run.latencies_.latency(InstrClass::Store) + 1.0 + dram;
    // store-miss with fetch_width = 1: an unconstrained iteration of N + 2 instructions takes
    // N + 2 cycles; s SQ entries allow one store per residency / s cycles.
    const auto perIteration = [&](int fillers, const std::string& setting) {
        const Kernel kernel = makeKernel("store-miss", {{"fillers", std::to_string(fillers)}},
                                         std::max(400, 40'000 / (fillers + 2)));
        const auto timing = run.simulate(kernel, with(widest(), "fetch_width=1 " + setting));
        return Runner::cyclesPerInstruction(kernel, timing, std::size_t(fillers + 2)) *
               (fillers + 2);
    };
    run.report({"stores", "SQ residency of a store miss",
                "store-miss fillers=14, sq=4, fetch_width=1", "cycles", residency,
                4.0 * perIteration(14, "sq=4"), 1.0, false,
                "sq × cycles per store: dispatch-to-issue + store latency + 1 + DRAM latency"});

    for (int fillers : {14, 28}) {
        const double period = fillers + 2;
        const int expected = static_cast<int>(std::ceil(residency / period));
        int measured = -1;
        for (int size = std::max(4, expected - 4); size <= expected + 4 && measured < 0; ++size)
            if (perIteration(fillers, "sq=" + std::to_string(size)) < 1.02 * period)
                measured = size;
        run.report({"stores", "sq knee under store misses",
                    "store-miss fillers=" + std::to_string(fillers) + ", fetch_width=1, sq swept " +
                        std::to_string(std::max(4, expected - 4)) + ".." +
                        std::to_string(expected + 4),
                    "entries", double(expected), double(measured), 1.0, false,
                    "smallest sq at which a store per " + std::to_string(fillers + 2) +
                        " cycles is sustained: ceil(residency / period)"});
    }

    // Store misses take MSHRs: a store every 4 cycles needs 50 RFOs in flight, more than there
    // are MSHRs, so stores per cycle × DRAM latency = l1dMshrs.
    run.report({"stores", "L1d MSHR limit on store misses", "store-miss fillers=2, fetch_width=1",
                "misses", double(run.pipeline_.l1dMshrs), dram / perIteration(2, ""), 0.5, false,
                "stores per cycle × DRAM latency"});

    // Dirty evictions take DRAM bandwidth. A 16 MB store stream through 5 MB of caches, after a
    // warm-up pass has filled them with written lines: every store reads its line (RFO) and
    // evicts a dirty one that reaches DRAM, two lines per store. With enough MSHRs for the
    // channel to bind, stores per cycle × 2 lines = the DRAM bandwidth; a load stream under the
    // same setting moves one line per load.
    PipelineSpec manyMshrs = run.pipeline_;
    manyMshrs.l1dMshrs = 64;
    const CoreConfig config = with(widest(), "l1d_kb=64 l2_kb=1024 pf_degree=0");
    const auto bandwidth = [&](const std::string& kernelName, double linesPerAccess) {
        const Kernel kernel = makeKernel(kernelName, {{"ws_kb", "16384"}}, 1);
        const auto timing = run.simulate(kernel, config, manyMshrs);
        return linesPerAccess * run.memory_.lineBytes *
               Runner::steadyRate(kernel, timing, [](const TraceRecord& r) {
                   return r.loadCount > 0 || r.storeCount > 0;
               });
    };
    const std::string setting = "ws_kb=16384, l1d_kb=64 l2_kb=1024, 64 MSHRs";
    run.report({"stores", "DRAM bandwidth of a dirty-eviction stream", "stride-store " + setting,
                "bytes/cycle", run.memory_.dramBytesPerCycle, bandwidth("stride-store", 2.0), 0.3,
                false, "stores per cycle × 2 lines (RFO read + dirty writeback) × line size"});
    run.report({"stores", "DRAM bandwidth of a read stream", "stride-load " + setting,
                "bytes/cycle", run.memory_.dramBytesPerCycle, bandwidth("stride-load", 1.0), 0.3,
                false, "loads per cycle × line size"});
}

const std::vector<std::pair<std::string, void (*)(Runner&)>>& allGroups() {
    static const std::vector<std::pair<std::string, void (*)(Runner&)>> groups = {
        {"latency", latencyChecks},
        {"load-to-use", loadToUseChecks},
        {"width", widthChecks},
        {"knee", kneeChecks},
        {"capacity", capacityChecks},
        {"front-end", frontEndChecks},
        {"branch-target", branchTargetChecks},
        {"memory", memoryChecks},
        {"stores", storeChecks}};
    return groups;
}

} // namespace

nlohmann::json DiagnosticCheck::toJson() const {
    return {{"group", group},           {"name", name},
            {"setting", setting},       {"unit", unit},
            {"configured", configured}, {"measured", measured},
            {"tolerance", tolerance},   {"passed", passed},
            {"at_least", atLeast},      {"how", how}};
}

DiagnosticSuite::DiagnosticSuite(const PipelineSpec& pipeline, const MemorySystemSpec& memory,
                                 const LatencyTable& latencies)
    : pipeline_(pipeline), memory_(memory), latencies_(latencies) {}

std::vector<std::string> DiagnosticSuite::groups() {
    std::vector<std::string> names;
    for (const auto& group : allGroups())
        names.push_back(group.first);
    return names;
}

std::vector<DiagnosticCheck>
DiagnosticSuite::run(const std::function<void(const DiagnosticCheck&)>& progress) const {
    return run(groups(), progress);
}

std::vector<DiagnosticCheck>
DiagnosticSuite::run(const std::vector<std::string>& selected,
                     const std::function<void(const DiagnosticCheck&)>& progress) const {
    std::vector<DiagnosticCheck> checks;
    Runner runner(pipeline_, memory_, latencies_, progress, checks);
    for (const auto& [name, function] : allGroups())
        if (std::find(selected.begin(), selected.end(), name) != selected.end())
            function(runner);
    return checks;
}

} // namespace concorde
