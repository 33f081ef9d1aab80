#include "analysis/WarmStateBuilder.h"

#include "common/ConcordeError.h"

#include <algorithm>
#include <string>

namespace concorde {

WarmStateBuilder::WarmStateBuilder(std::uint32_t lineShift, const TagePredictor::Geometry& tage,
                                   const BranchTargetSpec& targets)
    : lineShift_(lineShift), sets_(WarmState::finestSets()), ways_(WarmState::ways()),
      setMask_(sets_ - 1), wayLines_(std::size_t{sets_} * ways_, kNoLine),
      wayStamps_(std::size_t{sets_} * ways_, 0), recent_{std::vector<std::uint64_t>(sets_, kNoLine),
                                                         std::vector<std::uint64_t>(sets_, 0),
                                                         std::vector<std::uint32_t>(sets_, 0)},
      recentLoads_(WarmState::kRecentLoads), tage_(tage), targets_(targets) {
    if (sets_ == 0 || (sets_ & (sets_ - 1)) != 0)
        throw runtimeFailure("internal error: the finest cache set count " + std::to_string(sets_) +
                             " is not a power of two");
}

void WarmStateBuilder::writeBack(std::size_t set) {
    const std::uint64_t line = recent_.line[set];
    if (line == kNoLine)
        return;
    wayLines_[recent_.way[set]] = line;
    wayStamps_[recent_.way[set]] = recent_.stamp[set];
}

// The common case inline (the line is its set's most recent: only the entry in front changes),
// the table search out of line.
[[gnu::always_inline]] inline void WarmStateBuilder::touch(std::uint64_t line, bool instruction) {
    const std::uint64_t stamp = ++stamp_;
    const std::uint64_t tagged = line | (instruction ? kInstructionBit : 0);
    const std::size_t set = line & setMask_;
    if ((recent_.line[set] & ~kInstructionBit) == line) {
        recent_.line[set] = tagged;
        recent_.stamp[set] = stamp;
        return;
    }
    touchTable(line, tagged, stamp);
}

void WarmStateBuilder::touchTable(std::uint64_t line, std::uint64_t tagged, std::uint64_t stamp) {
    const std::size_t set = line & setMask_;
    writeBack(set); // the table is exact for this set before it is searched
    const std::size_t base = set * ways_;
    std::uint64_t* lines = wayLines_.data() + base;
    std::uint64_t* stamps = wayStamps_.data() + base;
    std::uint32_t way = 0;
    for (; way < ways_; ++way)
        if ((lines[way] & ~kInstructionBit) == line)
            break;
    if (way == ways_) {
        way = 0;
        for (std::uint32_t w = 1; w < ways_; ++w)
            if (stamps[w] < stamps[way])
                way = w;
    }
    lines[way] = tagged;
    stamps[way] = stamp;
    recent_.line[set] = tagged;
    recent_.stamp[set] = stamp;
    recent_.way[set] = static_cast<std::uint32_t>(base + way);
}

// Inlined into both observe() loops: it runs once per instruction of every functional warm-up,
// and a call per record cost a tenth of the builder's time.
[[gnu::always_inline]] inline void
WarmStateBuilder::observeLines(std::uint64_t pc, std::uint32_t size, bool taken,
                               const MemoryAccess* loads, std::size_t loadCount,
                               const MemoryAccess* stores, std::size_t storeCount) {
    ++instructions_;
    // Fetch lines as the analysis and the simulator fetch them: a new line, or after a taken
    // branch; an instruction spanning two lines touches both.
    const std::uint64_t first = pc >> lineShift_;
    const std::uint64_t last = (pc + std::max<std::uint32_t>(size, 1) - 1) >> lineShift_;
    for (std::uint64_t line = first; line <= last; ++line)
        if (line != lastFetchLine_)
            touch(line, true);
    lastFetchLine_ = taken ? ~std::uint64_t{0} : last;
    const auto touchData = [&](std::uint64_t address, std::uint32_t accessSize) {
        const std::uint64_t end =
            (address + std::max<std::uint32_t>(accessSize, 1) - 1) >> lineShift_;
        for (std::uint64_t line = address >> lineShift_; line <= end; ++line) {
            // Touching the most recently touched data line again with nothing in between
            // changes no order: skip it.
            if (line == lastDataLine_ && stamp_ == lastDataStamp_)
                continue;
            touch(line, false);
            lastDataLine_ = line;
            lastDataStamp_ = stamp_;
        }
    };
    for (std::size_t k = 0; k < loadCount; ++k) {
        touchData(loads[k].address, loads[k].size);
        recentLoads_[nextLoad_] = {pc, loads[k].address};
        nextLoad_ = (nextLoad_ + 1) % WarmState::kRecentLoads;
        ++loadsSeen_;
    }
    for (std::size_t k = 0; k < storeCount; ++k)
        touchData(stores[k].address, stores[k].size);
}

void WarmStateBuilder::observe(const TraceRecord& r, bool trainPredictor) {
    observeLines(r.pc, r.size, r.taken, r.loads.data(), r.loadCount, r.stores.data(), r.storeCount);
    if (r.isBranch())
        observeBranch(r, trainPredictor);
}

void WarmStateBuilder::observe(std::span<const FunctionalRecord> records,
                               std::span<const MemoryAccess> accesses, std::uint64_t untrained) {
    if (lineShift_ < FunctionalRecord::kFollowerLineShift)
        throw runtimeFailure("internal error: functional records counted followers over longer "
                             "lines than the warm state's");
    const std::uint64_t first = instructions_;
    TraceRecord branch; // the fields the predictors read, for the batch's branches
    for (const FunctionalRecord& r : records) {
        const MemoryAccess* loads = accesses.data() + r.firstAccess;
        observeLines(r.pc, r.size, r.taken, loads, r.loadCount, loads + r.loadCount, r.storeCount);
        // Followers touch nothing new (FunctionalRecord): they only count.
        instructions_ += r.followers;
        if (!r.isBranch())
            continue;
        // A branch has no followers: it is the batch's (instructions_ - 1 - first)th instruction.
        const bool trained = instructions_ - 1 - first >= untrained;
        const BranchEvent event{r.pc, r.branchTarget, r.size, r.branchKind, r.taken, trained};
        if (branchLog_) {
            branchLog_->push_back(event);
            continue;
        }
        event.toRecord(branch);
        observeBranch(branch, event.trainPredictor);
    }
}

void WarmStateBuilder::trainOn(TagePredictor& tage, BranchTargetPredictor& targets,
                               std::span<const BranchEvent> branches, TraceRecord& branch) {
    // The two predictors share no state, so each can take the whole run in turn.
    tage.train(branches);
    for (const BranchEvent& event : branches) {
        if (!event.trainPredictor)
            continue;
        event.toRecord(branch);
        targets.predictAndUpdate(branch);
    }
}

void WarmStateBuilder::observeBranch(const TraceRecord& branch, bool trainPredictor) {
    if (branchLog_) {
        branchLog_->push_back({branch.pc, branch.branchTarget, branch.size, branch.branchKind,
                               branch.taken, trainPredictor});
        return;
    }
    if (trainPredictor) {
        tage_.predictAndUpdate(branch);
        targets_.predictAndUpdate(branch);
    } else
        tage_.trainBase(branch);
}

WarmState WarmStateBuilder::finish() const {
    WarmState state;
    state.instructions = instructions_;
    if (loadsSeen_ < WarmState::kRecentLoads) {
        state.recentLoads.assign(recentLoads_.begin(), recentLoads_.begin() + nextLoad_);
    } else {
        state.recentLoads.assign(recentLoads_.begin() + nextLoad_, recentLoads_.end());
        state.recentLoads.insert(state.recentLoads.end(), recentLoads_.begin(),
                                 recentLoads_.begin() + nextLoad_);
    }
    state.tage = std::make_shared<const TagePredictor>(tage_);
    state.targets = std::make_shared<const BranchTargetPredictor>(targets_);
    // The table with the recent-line entries written back (they hold their lines' newest use).
    std::vector<std::uint64_t> wayLines = wayLines_;
    std::vector<std::uint64_t> wayStamps = wayStamps_;
    for (std::size_t set = 0; set < sets_; ++set)
        if (recent_.line[set] != kNoLine) {
            wayLines[recent_.way[set]] = recent_.line[set];
            wayStamps[recent_.way[set]] = recent_.stamp[set];
        }
    std::vector<std::size_t> kept; // occupied ways, oldest first
    for (std::size_t i = 0; i < wayStamps.size(); ++i)
        if (wayStamps[i] != 0)
            kept.push_back(i);
    std::sort(kept.begin(), kept.end(),
              [&](std::size_t a, std::size_t b) { return wayStamps[a] < wayStamps[b]; });
    state.lines.reserve(kept.size());
    for (const std::size_t i : kept)
        state.lines.push_back(
            {wayLines[i] & ~kInstructionBit, (wayLines[i] & kInstructionBit) != 0});
    return state;
}

} // namespace concorde
