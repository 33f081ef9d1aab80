#include "refsim/OutOfOrderCore.h"

#include "analysis/BranchTargetPredictor.h"
#include "analysis/IssueGroup.h"
#include "analysis/MemoryConfig.h"
#include "analysis/SimplePredictor.h"
#include "analysis/TagePredictor.h"
#include "common/ConcordeError.h"
#include "refsim/DependencyGraph.h"
#include "refsim/TimedMemorySystem.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <string>

namespace concorde {
namespace {

constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

IssueGroup issueGroupOf(const TraceRecord& r) {
    return concorde::issueGroupOf(r.instrClass, r.loadCount > 0 || r.storeCount > 0);
}
constexpr std::size_t kGroupCount = kIssueGroupCount;

std::unique_ptr<BranchPredictor> makePredictor(const CoreConfig& config) {
    if (config.branchPredictor() == BranchPredictorKind::Tage)
        return std::make_unique<TagePredictor>();
    return std::make_unique<SimplePredictor>(config.bpMissPct());
}

using MinHeap = std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>>;
using TimedEntry = std::pair<std::uint64_t, std::uint64_t>; // (cycle, instruction)
using Calendar = std::priority_queue<TimedEntry, std::vector<TimedEntry>, std::greater<>>;

/// One simulation: all per-run state, so OutOfOrderCore itself stays a reusable description.
class Engine {
public:
    Engine(const CoreConfig& config, const MemorySystemSpec& memorySpec,
           const PipelineSpec& pipeline, const LatencyTable& latencies,
           const std::vector<SimulationListener*>& listeners)
        : config_(config), pipeline_(pipeline), latencies_(latencies), listeners_(listeners),
          memory_(MemoryConfig::fromCoreConfig(config), memorySpec, pipeline.l1dMshrs),
          predictor_(makePredictor(config)), targets_(pipeline.targets) {}

    const TimedMemorySystem::Counters& memoryCounters() const { return memory_.counters(); }
    std::uint64_t run(std::span<const TraceRecord> records, std::size_t warmup,
                      const WarmState* warm, const DependencyGraph* graph);

private:
    struct FetchLine {
        std::uint64_t first; ///< first instruction
        std::uint64_t end;   ///< one past the last instruction
        std::uint64_t ready; ///< cycle from which fetch can deliver from it
        bool missed;         ///< waited on an I-cache miss
    };
    struct Queued {
        std::uint64_t index;
        std::uint64_t cycle; ///< when it entered the queue
    };

    void warmUp(const WarmState* state, std::span<const TraceRecord> warm);
    void prepare(std::span<const TraceRecord> measured);
    bool drainStage();
    bool commitStage();
    bool issueStage();
    bool issueOne(std::uint64_t i);
    bool dispatchStage(CycleEvent& cycleEvent);
    bool decodeStage();
    bool fetchStage();
    bool lineRequestStage();
    std::uint64_t nextEventCycle();
    StallReason robFullReason() const;
    StallReason frontEndReason() const;
    std::uint64_t lineOf(std::uint64_t i) const { return rec(i).pc >> memory_.lineShift(); }
    const TraceRecord& rec(std::uint64_t i) const { return measured_[i]; }
    template <typename F>
    void notify(F&& f) {
        for (auto* listener : listeners_)
            f(*listener);
    }

    const CoreConfig& config_;
    const PipelineSpec& pipeline_;
    const LatencyTable& latencies_;
    const std::vector<SimulationListener*>& listeners_;
    TimedMemorySystem memory_;
    std::unique_ptr<BranchPredictor> predictor_;
    BranchTargetPredictor targets_;

    std::span<const TraceRecord> measured_;
    std::uint64_t n_ = 0;
    std::uint64_t now_ = 0;

    // Per-instruction state.
    std::optional<DependencyGraph> ownGraph_; ///< when run() was given none
    const DependencyGraph* graph_ = nullptr;
    std::vector<std::uint64_t> issuedAt_;    ///< kUnknown until issued
    std::vector<std::uint8_t> mispredicted_; ///< direction or target: resolves at execute
    std::vector<std::uint8_t> btbMissed_;    ///< taken, missed the BTB: redirects at decode
    std::vector<std::uint8_t> dispatched_;
    std::vector<std::uint8_t> pending_;
    std::vector<std::uint64_t> readyAt_;
    std::vector<std::uint64_t> complete_;
    std::vector<std::uint8_t> level_; ///< MemLevel of a load, set at issue
    /// Cycle a store instruction's data is in the L1d; kUnknown until the store buffer has
    /// written all its stores.
    std::vector<std::uint64_t> writtenAt_;

    // Front end.
    std::deque<FetchLine> lines_;
    std::uint64_t nextLineStart_ = 0;
    std::uint64_t nextFetch_ = 0;
    MinHeap icacheMisses_;                ///< arrival cycles of outstanding I-cache misses
    std::int64_t blockingBranch_ = -1;    ///< unresolved mispredicted branch stopping fetch
    std::int64_t blockingRedirect_ = -1;  ///< BTB-missing branch stopping fetch until decoded
    std::uint64_t redirectAt_ = kUnknown; ///< when its target may be requested (once decoded)
    std::deque<Queued> decodeQueue_;
    std::deque<Queued> renameQueue_;

    // Back end.
    std::uint64_t robHead_ = 0;
    std::uint64_t nextDispatch_ = 0;
    std::uint32_t lqUsed_ = 0;
    std::uint32_t sqUsed_ = 0; ///< dispatched store instructions not yet written
    // Store buffer: committed store instructions keep their SQ entry until written.
    std::deque<std::uint64_t> storeBuffer_; ///< committed, not yet sent to the L1d, oldest first
    std::uint32_t headStoresSent_ = 0;      ///< stores of storeBuffer_.front() already sent
    std::uint64_t headWrittenAt_ = 0;       ///< when those are written
    MinHeap sqReleases_;                    ///< written cycles of sent stores still in the SQ
    bool fenceInRob_ = false;
    Calendar wakeups_;
    std::array<MinHeap, kGroupCount> ready_;
    std::uint64_t lastCommitCycle_ = 0;
};

void Engine::warmUp(const WarmState* state, std::span<const TraceRecord> warm) {
    if (state && !state->cold()) {
        memory_.warm(*state);
        if (config_.branchPredictor() == BranchPredictorKind::Tage)
            predictor_ = std::make_unique<TagePredictor>(state->tagePredictor());
        targets_ = state->targetPredictor(targets_.spec());
    }
    std::uint64_t lastLine = kUnknown;
    for (const TraceRecord& r : warm) {
        const std::uint64_t line = r.pc >> memory_.lineShift();
        if (line != lastLine)
            memory_.warmInstruction(line);
        lastLine = r.taken ? kUnknown : line;
        for (std::size_t k = 0; k < r.loadCount; ++k)
            memory_.warmData(r.pc, r.loads[k].address, r.loads[k].size, false);
        for (std::size_t k = 0; k < r.storeCount; ++k)
            memory_.warmData(r.pc, r.stores[k].address, r.stores[k].size, true);
        predictor_->predictAndUpdate(r);
        targets_.predictAndUpdate(r);
    }
}

void Engine::prepare(std::span<const TraceRecord> measured) {
    measured_ = measured;
    n_ = measured.size();
    mispredicted_.resize(n_);
    // The simple predictor numbers conditional branches from the first measured instruction,
    // exactly as the trace analysis does, so both see the same mispredictions.
    if (config_.branchPredictor() == BranchPredictorKind::Simple)
        predictor_->reset();
    btbMissed_.assign(n_, 0);
    for (std::uint64_t i = 0; i < n_; ++i) {
        const TraceRecord& r = measured[i];
        // The direction predictor decides conditional branches only; every target (returns,
        // indirect jumps, BTB) comes from the shared branch-target front end, as in the analysis.
        const bool direction =
            predictor_->predictAndUpdate(r) && r.branchKind == BranchKind::DirectConditional;
        const TargetOutcome target = targets_.predictAndUpdate(r);
        mispredicted_[i] = direction || target == TargetOutcome::Mispredicted;
        btbMissed_[i] = !mispredicted_[i] && target == TargetOutcome::BtbMiss;
    }
    dispatched_.assign(n_, 0);
    pending_.assign(n_, 0);
    readyAt_.assign(n_, 0);
    complete_.assign(n_, kUnknown);
    issuedAt_.assign(n_, kUnknown);
    level_.assign(n_, 0);
    writtenAt_.assign(n_, kUnknown);
}

bool Engine::commitStage() {
    bool progress = false;
    for (int k = 0; k < config_.commitWidth() && robHead_ < nextDispatch_; ++k) {
        const std::uint64_t i = robHead_;
        if (complete_[i] == kUnknown || complete_[i] > now_)
            break;
        const TraceRecord& r = rec(i);
        // A fence also waits until every older store has been written: the SQ holds only its
        // own entry (an atomic has one), as younger instructions wait at dispatch.
        if (r.instrClass == InstrClass::Fence && sqUsed_ > (r.storeCount > 0 ? 1u : 0u))
            break;
        lqUsed_ -= r.loadCount > 0;
        if (r.storeCount > 0)
            storeBuffer_.push_back(i); // its SQ entry frees once the store buffer has written it
        if (r.instrClass == InstrClass::Fence)
            fenceInRob_ = false;
        ++robHead_;
        lastCommitCycle_ = now_;
        progress = true;
        notify([&](SimulationListener& l) { l.onCommit({i, now_}); });
    }
    return progress;
}

bool Engine::drainStage() {
    bool progress = false;
    while (!sqReleases_.empty() && sqReleases_.top() <= now_) {
        sqReleases_.pop();
        --sqUsed_;
        progress = true;
    }
    // Oldest first, one store per load-store pipe per cycle (each pipe has an L1d write port);
    // a store whose line misses waits for an MSHR, and younger stores wait behind it.
    for (int port = 0; port < config_.lsPipes() && !storeBuffer_.empty(); ++port) {
        const std::uint64_t i = storeBuffer_.front();
        const TraceRecord& r = rec(i);
        const auto& access = r.stores[headStoresSent_];
        const auto result = memory_.write(access.address, access.size, now_);
        if (!result.accepted)
            break;
        progress = true;
        headWrittenAt_ = std::max(headWrittenAt_, result.writtenCycle);
        if (++headStoresSent_ < r.storeCount)
            continue;
        writtenAt_[i] = headWrittenAt_;
        if (headWrittenAt_ <= now_)
            --sqUsed_;
        else
            sqReleases_.push(headWrittenAt_);
        storeBuffer_.pop_front();
        headStoresSent_ = 0;
        headWrittenAt_ = 0;
    }
    return progress;
}

bool Engine::issueOne(std::uint64_t i) {
    const TraceRecord& r = rec(i);
    std::uint64_t memoryReady = now_;
    bool hasLevel = false;
    MemLevel level = MemLevel::L1;
    if (r.loadCount > 0) {
        hasLevel = true;
        // A store producer still in the SQ (before or after commit, until the store buffer
        // has written it to the L1d) forwards its data at L1 latency.
        bool forwarded = false;
        const ProducerList& deps = graph_->producers(i);
        for (std::size_t k = 0; k < deps.size(); ++k)
            if (deps.isMemory(k) && writtenAt_[static_cast<std::size_t>(deps.index[k])] > now_)
                forwarded = true;
        if (forwarded) {
            memoryReady = now_ + memory_.latency(MemLevel::L1);
        } else {
            for (std::size_t k = 0; k < r.loadCount; ++k) {
                const auto result = memory_.load(r.pc, r.loads[k].address, r.loads[k].size, now_);
                if (!result.accepted)
                    return false; // no MSHR: retry in a later cycle
                memoryReady = std::max(memoryReady, result.readyCycle);
                level = std::max(level, result.level);
            }
        }
    }
    const auto memoryLatency = static_cast<std::uint32_t>(memoryReady - now_);
    const std::uint64_t done = now_ + latencies_.instructionLatency(r.instrClass, memoryLatency);
    complete_[i] = done;
    issuedAt_[i] = now_;
    level_[i] = static_cast<std::uint8_t>(level);
    for (const std::uint32_t edge : graph_->consumers(i)) {
        const std::uint32_t j = ConsumerLists::consumer(edge);
        if (!dispatched_[j])
            continue; // reads complete_[i] itself when it dispatches
        readyAt_[j] = std::max(readyAt_[j], ConsumerLists::isEarly(edge) ? now_ + 1 : done);
        if (--pending_[j] == 0)
            wakeups_.push({readyAt_[j], j});
    }
    if (mispredicted_[i])
        notify([&](SimulationListener& l) { l.onMispredict({i, done}); });
    notify([&](SimulationListener& l) { l.onIssue({i, now_, done, hasLevel, level}); });
    return true;
}

bool Engine::issueStage() {
    while (!wakeups_.empty() && wakeups_.top().first <= now_) {
        const std::uint64_t i = wakeups_.top().second;
        wakeups_.pop();
        ready_[static_cast<std::size_t>(issueGroupOf(rec(i)))].push(i);
    }
    bool progress = false;
    const int aluWidth = config_.aluIssue();
    const int fpWidth = config_.fpIssue();
    for (int k = 0; k < aluWidth && !ready_[0].empty(); ++k) {
        const std::uint64_t i = ready_[0].top();
        ready_[0].pop();
        issueOne(i);
        progress = true;
    }
    for (int k = 0; k < fpWidth && !ready_[1].empty(); ++k) {
        const std::uint64_t i = ready_[1].top();
        ready_[1].pop();
        issueOne(i);
        progress = true;
    }
    for (; !ready_[3].empty(); ready_[3].pop()) {
        issueOne(ready_[3].top());
        progress = true;
    }
    // Memory ops: oldest first within ls_issue, each needing a pipe that can take it. Ops that
    // cannot go this cycle (no suitable pipe, no MSHR) wait for the next.
    MinHeap& memoryReady = ready_[2];
    std::vector<std::uint64_t> deferred;
    int issued = 0;
    int loadPipesUsed = 0;
    int lsPipesUsed = 0;
    while (issued < config_.lsIssue() && !memoryReady.empty()) {
        const std::uint64_t i = memoryReady.top();
        memoryReady.pop();
        const TraceRecord& r = rec(i);
        const bool isStore = r.storeCount > 0;
        bool useLoadPipe = false;
        if (isStore) {
            if (lsPipesUsed >= config_.lsPipes()) {
                deferred.push_back(i);
                continue;
            }
        } else if (loadPipesUsed < config_.loadPipes()) {
            useLoadPipe = true;
        } else if (lsPipesUsed >= config_.lsPipes()) {
            deferred.push_back(i);
            continue;
        }
        if (!issueOne(i)) {
            deferred.push_back(i);
            continue;
        }
        (useLoadPipe ? loadPipesUsed : lsPipesUsed)++;
        ++issued;
        progress = true;
    }
    for (std::uint64_t i : deferred)
        memoryReady.push(i);
    return progress;
}

StallReason Engine::robFullReason() const {
    const std::uint64_t head = robHead_;
    if (complete_[head] == kUnknown || rec(head).loadCount == 0)
        return StallReason::RobFullExecution;
    switch (static_cast<MemLevel>(level_[head])) {
    case MemLevel::L1:
        return StallReason::RobFullMemL1;
    case MemLevel::L2:
        return StallReason::RobFullMemL2;
    case MemLevel::Llc:
        return StallReason::RobFullMemLlc;
    case MemLevel::Dram:
        return StallReason::RobFullMemDram;
    }
    return StallReason::RobFullExecution;
}

StallReason Engine::frontEndReason() const {
    // A decode redirect after a BTB miss is a (shorter) misprediction of the target.
    if (blockingBranch_ >= 0 || blockingRedirect_ >= 0)
        return StallReason::FrontEndMispredict;
    if (!lines_.empty() && lines_.front().ready > now_ && lines_.front().missed)
        return StallReason::FrontEndIcache;
    return StallReason::FrontEndBandwidth;
}

bool Engine::dispatchStage(CycleEvent& event) {
    const int width = config_.renameWidth();
    event.dispatchSlots = static_cast<std::uint32_t>(width);
    event.dispatched = 0;
    event.reason = StallReason::None;
    while (static_cast<int>(event.dispatched) < width) {
        if (renameQueue_.empty() ||
            renameQueue_.front().cycle + pipeline_.decodeToRenameCycles > now_) {
            event.reason = frontEndReason();
            break;
        }
        const std::uint64_t i = renameQueue_.front().index;
        const TraceRecord& r = rec(i);
        const std::uint64_t inRob = nextDispatch_ - robHead_;
        if (fenceInRob_ || (r.instrClass == InstrClass::Fence && inRob > 0)) {
            event.reason = StallReason::Fence;
            break;
        }
        if (inRob >= static_cast<std::uint64_t>(config_.rob())) {
            event.reason = robFullReason();
            break;
        }
        if (r.loadCount > 0 && lqUsed_ >= static_cast<std::uint32_t>(config_.loadQueue())) {
            event.reason = StallReason::LoadQueueFull;
            break;
        }
        if (r.storeCount > 0 && sqUsed_ >= static_cast<std::uint32_t>(config_.storeQueue())) {
            event.reason = StallReason::StoreQueueFull;
            break;
        }
        renameQueue_.pop_front();
        lqUsed_ += r.loadCount > 0;
        sqUsed_ += r.storeCount > 0;
        fenceInRob_ = fenceInRob_ || r.instrClass == InstrClass::Fence;
        ++nextDispatch_;
        dispatched_[i] = 1;
        std::uint64_t readyAt = now_ + pipeline_.dispatchToIssueCycles;
        std::uint8_t pending = 0;
        const ProducerList& deps = graph_->producers(i);
        for (std::size_t k = 0; k < deps.size(); ++k) {
            const auto p = static_cast<std::size_t>(deps.index[k]);
            if (complete_[p] == kUnknown)
                ++pending;
            else
                readyAt = std::max(readyAt, deps.isEarly(k) ? issuedAt_[p] + 1 : complete_[p]);
        }
        readyAt_[i] = readyAt;
        pending_[i] = pending;
        if (pending == 0)
            wakeups_.push({readyAt, i});
        ++event.dispatched;
    }
    return event.dispatched > 0;
}

bool Engine::decodeStage() {
    bool progress = false;
    for (int k = 0; k < config_.decodeWidth(); ++k) {
        if (decodeQueue_.empty() || renameQueue_.size() >= pipeline_.renameQueueEntries ||
            decodeQueue_.front().cycle + pipeline_.fetchToDecodeCycles > now_)
            break;
        const std::uint64_t i = decodeQueue_.front().index;
        if (static_cast<std::int64_t>(i) == blockingRedirect_) {
            redirectAt_ = now_ + pipeline_.redirectCycles;
            notify([&](SimulationListener& l) { l.onRedirect({i, redirectAt_}); });
        }
        renameQueue_.push_back({i, now_});
        decodeQueue_.pop_front();
        progress = true;
    }
    return progress;
}

bool Engine::fetchStage() {
    bool progress = false;
    int budget = config_.fetchWidth();
    while (budget > 0 && !lines_.empty() && lines_.front().ready <= now_ &&
           decodeQueue_.size() < pipeline_.decodeQueueEntries) {
        FetchLine& line = lines_.front();
        const std::uint64_t i = nextFetch_++;
        decodeQueue_.push_back({i, now_});
        --budget;
        progress = true;
        if (nextFetch_ == line.end)
            lines_.pop_front();
        if (rec(i).taken)
            break; // one taken branch per cycle
    }
    return progress;
}

bool Engine::lineRequestStage() {
    if (blockingBranch_ >= 0) {
        const std::uint64_t resolved = complete_[static_cast<std::size_t>(blockingBranch_)];
        if (resolved == kUnknown || resolved + pipeline_.redirectCycles > now_)
            return false;
        blockingBranch_ = -1;
    }
    if (blockingRedirect_ >= 0) {
        if (redirectAt_ == kUnknown || redirectAt_ > now_)
            return false;
        blockingRedirect_ = -1;
        redirectAt_ = kUnknown;
    }
    while (!icacheMisses_.empty() && icacheMisses_.top() <= now_)
        icacheMisses_.pop();
    bool progress = false;
    for (std::uint32_t k = 0; k < pipeline_.lineRequestsPerCycle; ++k) {
        if (nextLineStart_ >= n_ ||
            lines_.size() >= static_cast<std::size_t>(config_.fetchBuffers()))
            break;
        const std::uint64_t line = lineOf(nextLineStart_);
        const bool hit = memory_.instructionLineCached(line);
        if (!hit && icacheMisses_.size() >= static_cast<std::size_t>(config_.icacheFills()))
            break;
        FetchLine entry{nextLineStart_, nextLineStart_, 0, !hit};
        // The line's instructions: up to a line change, a taken branch or a misprediction.
        std::uint64_t i = nextLineStart_;
        for (;;) {
            const bool stops = rec(i).taken || mispredicted_[i];
            ++i;
            if (stops || i >= n_ || lineOf(i) != line)
                break;
        }
        entry.end = i;
        const MemLevel level = memory_.fetchLine(line);
        entry.ready = now_ + (hit ? pipeline_.icacheHitCycles : memory_.latency(level));
        if (!hit)
            icacheMisses_.push(entry.ready);
        lines_.push_back(entry);
        nextLineStart_ = i;
        progress = true;
        if (mispredicted_[i - 1]) {
            blockingBranch_ = static_cast<std::int64_t>(i - 1);
            break;
        }
        if (btbMissed_[i - 1]) {
            // Fetch runs on down the fall-through path (not in the trace, so not simulated)
            // until decode finds the branch.
            blockingRedirect_ = static_cast<std::int64_t>(i - 1);
            break;
        }
    }
    return progress;
}

std::uint64_t Engine::nextEventCycle() {
    std::uint64_t next = kUnknown;
    const auto consider = [&](std::uint64_t cycle) {
        if (cycle > now_ && cycle < next)
            next = cycle;
    };
    if (!wakeups_.empty())
        consider(wakeups_.top().first);
    if (!ready_[2].empty() || !storeBuffer_.empty()) {
        const auto release = memory_.nextMshrRelease(now_);
        consider(release ? *release : now_ + 1);
    }
    if (!sqReleases_.empty())
        consider(sqReleases_.top());
    if (!ready_[0].empty() || !ready_[1].empty())
        consider(now_ + 1);
    if (robHead_ < nextDispatch_ && complete_[robHead_] != kUnknown)
        consider(complete_[robHead_]);
    if (!lines_.empty())
        consider(lines_.front().ready);
    if (!decodeQueue_.empty())
        consider(decodeQueue_.front().cycle + pipeline_.fetchToDecodeCycles);
    if (!renameQueue_.empty())
        consider(renameQueue_.front().cycle + pipeline_.decodeToRenameCycles);
    if (blockingBranch_ >= 0 && complete_[static_cast<std::size_t>(blockingBranch_)] != kUnknown)
        consider(complete_[static_cast<std::size_t>(blockingBranch_)] + pipeline_.redirectCycles);
    if (redirectAt_ != kUnknown)
        consider(redirectAt_);
    if (!icacheMisses_.empty())
        consider(icacheMisses_.top());
    return next;
}

std::uint64_t Engine::run(std::span<const TraceRecord> records, std::size_t warmup,
                          const WarmState* warm, const DependencyGraph* graph) {
    warmUp(warm, records.first(warmup));
    if (graph == nullptr)
        graph = &ownGraph_.emplace(records, warmup);
    else if (graph->size() != records.size() - warmup)
        throw runtimeFailure("internal error: a dependency graph of " +
                             std::to_string(graph->size()) + " records given for " +
                             std::to_string(records.size() - warmup));
    graph_ = graph;
    prepare(records.subspan(warmup));
    notify([&](SimulationListener& l) { l.onStart(n_); });
    if (n_ == 0) {
        notify([&](SimulationListener& l) { l.onFinish(0); });
        return 0;
    }
    while (robHead_ < n_) {
        bool progress = drainStage();
        progress |= commitStage();
        progress |= issueStage();
        CycleEvent event;
        event.cycle = now_;
        progress |= dispatchStage(event);
        progress |= decodeStage();
        progress |= fetchStage();
        progress |= lineRequestStage();
        if (robHead_ >= n_) {
            notify([&](SimulationListener& l) { l.onCycle(event); });
            break;
        }
        std::uint64_t next = now_ + 1;
        if (!progress) {
            // Nothing moved: skip to the next cycle at which something can, reporting the
            // skipped cycles with this cycle's stall reason.
            next = nextEventCycle();
            if (next == kUnknown)
                throw runtimeFailure("reference simulator deadlocked at cycle " +
                                     std::to_string(now_) + " (instruction " +
                                     std::to_string(robHead_) + " of " + std::to_string(n_) +
                                     "); this is a simulator bug");
        }
        event.repeat = static_cast<std::uint32_t>(next - now_);
        notify([&](SimulationListener& l) { l.onCycle(event); });
        now_ = next;
    }
    const std::uint64_t cycles = lastCommitCycle_ + 1;
    notify([&](SimulationListener& l) { l.onFinish(cycles); });
    return cycles;
}

} // namespace

OutOfOrderCore::OutOfOrderCore(const CoreConfig& config, const MemorySystemSpec& memory,
                               const PipelineSpec& pipeline, const LatencyTable& latencies)
    : config_(config), memory_(memory), pipeline_(pipeline), latencies_(latencies) {
    memory_.validate();
}

std::uint64_t OutOfOrderCore::run(std::span<const TraceRecord> records, std::size_t warmup,
                                  const WarmState* warm, const DependencyGraph* graph) {
    if (warmup > records.size())
        throw badInput("warm-up of " + std::to_string(warmup) + " records exceeds the " +
                       std::to_string(records.size()) + " records given");
    Engine engine(config_, memory_, pipeline_, latencies_, listeners_);
    const std::uint64_t cycles = engine.run(records, warmup, warm, graph);
    memoryCounters_ = engine.memoryCounters();
    return cycles;
}

} // namespace concorde
