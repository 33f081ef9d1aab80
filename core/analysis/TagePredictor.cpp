#include "analysis/TagePredictor.h"

#include "common/ConcordeError.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace concorde {

namespace {
void require(bool ok, const std::string& what) {
    if (!ok)
        throw badInput("TAGE geometry: " + what);
}
void saturatingUpdate(std::int8_t& counter, bool up, int min, int max) {
    if (up) {
        if (counter < max)
            ++counter;
    } else if (counter > min) {
        --counter;
    }
}
} // namespace

TagePredictor::TagePredictor(const Geometry& geometry) : geometry_(geometry) {
    const Geometry& g = geometry_;
    require(g.bimodalLogSize >= 1 && g.bimodalLogSize <= 24, "bimodal size out of range");
    require(g.tableCount >= 0 && g.tableCount <= kMaxTables, "table count out of range");
    require(g.tableLogSize >= 2 && g.tableLogSize <= 20, "table size out of range");
    require(g.minHistory >= 1 && g.maxHistory >= g.minHistory &&
                g.maxHistory < static_cast<int>(kHistoryBuffer),
            "history lengths out of range");
    require(g.minTagBits >= 2 && g.minTagBits <= 15, "tag width out of range");
    require(g.usefulResetLog >= 4 && g.usefulResetLog <= 40, "reset period out of range");
    require(g.indirectLogSize >= 1 && g.indirectLogSize <= 20, "indirect table out of range");

    // Geometric series L(i) = Lmin · (Lmax/Lmin)^(i/(N-1)), kept strictly increasing.
    for (int i = 0; i < g.tableCount; ++i) {
        const double ratio = g.tableCount > 1 ? static_cast<double>(i) / (g.tableCount - 1) : 0;
        int length = static_cast<int>(std::lround(
            g.minHistory * std::pow(static_cast<double>(g.maxHistory) / g.minHistory, ratio)));
        if (i > 0)
            length = std::max(length, historyLengths_.back() + 1);
        require(length < static_cast<int>(kHistoryBuffer), "history too long");
        historyLengths_.push_back(length);
        tagBits_.push_back(std::min(g.minTagBits + i / 2, 15));
    }
    reset();
}

namespace {

/// Fixed-width little-endian fields, written and read in the same order.
class StateWriter {
public:
    template <typename T>
    void put(T value) {
        const auto bits = static_cast<std::uint64_t>(value);
        for (std::size_t b = 0; b < sizeof(T); ++b)
            bytes.push_back(static_cast<std::uint8_t>(bits >> (8 * b)));
    }
    std::vector<std::uint8_t> bytes;
};

class StateReader {
public:
    explicit StateReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    template <typename T>
    T get() {
        if (sizeof(T) > bytes_.size() - offset_)
            throw badInput("TAGE state is truncated at byte " + std::to_string(offset_));
        std::uint64_t bits = 0;
        for (std::size_t b = 0; b < sizeof(T); ++b)
            bits |= static_cast<std::uint64_t>(bytes_[offset_++]) << (8 * b);
        return static_cast<T>(bits);
    }
    bool atEnd() const { return offset_ == bytes_.size(); }

private:
    std::span<const std::uint8_t> bytes_;
    std::size_t offset_ = 0;
};

constexpr std::uint32_t kStateMagic = 0x31534754; // "TGS1"

} // namespace

std::vector<std::uint8_t> TagePredictor::saveState() const {
    StateWriter w;
    const Geometry& g = geometry_;
    w.put<std::uint32_t>(kStateMagic);
    for (const int field : {g.bimodalLogSize, g.tableCount, g.tableLogSize, g.minHistory,
                            g.maxHistory, g.minTagBits, g.usefulResetLog, g.indirectLogSize})
        w.put<std::int32_t>(field);
    for (const std::uint8_t counter : bimodal_)
        w.put(counter);
    for (std::size_t s = 0; s < counters_.size(); ++s) {
        w.put(tableTags_[s]);
        w.put(counters_[s].counter);
        w.put(counters_[s].useful);
    }
    // All index folds, then all first tag folds, then all second ones.
    for (const auto& fold : lanes_.fold)
        for (int i = 0; i < g.tableCount; ++i)
            w.put(fold[i]);
    for (unsigned b = 0; b < kHistoryBuffer; ++b)
        w.put(history_[b]);
    w.put<std::uint32_t>(head_);
    w.put(pathHistory_);
    w.put(recentOutcomes_);
    w.put(useAltOnNewlyAllocated_);
    w.put(conditionalCount_);
    w.put(random_);
    for (const auto* targets : {&targetCache_, &lastTarget_})
        for (const TargetEntry& t : *targets) {
            w.put(t.pc);
            w.put(t.target);
        }
    return std::move(w.bytes);
}

void TagePredictor::restoreState(std::span<const std::uint8_t> bytes) {
    StateReader r(bytes);
    if (r.get<std::uint32_t>() != kStateMagic)
        throw badInput("not a TAGE state");
    const Geometry& g = geometry_;
    for (const int field : {g.bimodalLogSize, g.tableCount, g.tableLogSize, g.minHistory,
                            g.maxHistory, g.minTagBits, g.usefulResetLog, g.indirectLogSize})
        if (r.get<std::int32_t>() != field)
            throw badInput("the TAGE state was saved with another predictor geometry");
    TagePredictor restored(geometry_);
    for (std::uint8_t& counter : restored.bimodal_)
        counter = r.get<std::uint8_t>();
    for (std::size_t s = 0; s < restored.counters_.size(); ++s) {
        restored.tableTags_[s] = r.get<std::uint16_t>();
        restored.counters_[s].counter = r.get<std::int8_t>();
        restored.counters_[s].useful = r.get<std::uint8_t>();
    }
    for (auto& fold : restored.lanes_.fold)
        for (int i = 0; i < g.tableCount; ++i)
            fold[i] = r.get<std::uint32_t>();
    for (unsigned b = 0; b < kHistoryBuffer; ++b)
        restored.history_[b] = r.get<std::uint8_t>();
    restored.head_ = r.get<std::uint32_t>() & (kHistoryBuffer - 1);
    restored.pathHistory_ = r.get<std::uint64_t>();
    restored.recentOutcomes_ = r.get<std::uint64_t>();
    restored.useAltOnNewlyAllocated_ = r.get<std::int8_t>();
    restored.conditionalCount_ = r.get<std::uint64_t>();
    restored.random_ = r.get<std::uint32_t>();
    for (auto* targets : {&restored.targetCache_, &restored.lastTarget_})
        for (TargetEntry& t : *targets) {
            t.pc = r.get<std::uint64_t>();
            t.target = r.get<std::uint64_t>();
        }
    if (!r.atEnd())
        throw badInput("TAGE state has trailing bytes");
    *this = std::move(restored);
}

void TagePredictor::reset() {
    const Geometry& g = geometry_;
    bimodal_.assign(std::size_t{1} << g.bimodalLogSize, 2);
    const std::size_t entries = static_cast<std::size_t>(g.tableCount) << g.tableLogSize;
    tableTags_.assign(entries + 1, kEmptyTag);
    counters_.assign(entries, EntryCounters{});
    lanes_ = TageLanes{};
    TageLanes& l = lanes_;
    l.logSize = static_cast<std::uint32_t>(g.tableLogSize);
    for (int i = 0; i < g.tableCount; ++i) {
        const auto length = static_cast<std::uint32_t>(historyLengths_[i]);
        l.length[i] = length;
        const int widths[] = {g.tableLogSize, tagBits_[i], tagBits_[i] - 1};
        for (int k = 0; k < 3; ++k) {
            l.width[k][i] = static_cast<std::uint32_t>(widths[k]);
            l.foldMask[k][i] = (1u << widths[k]) - 1;
            l.outBit[k][i] = 1u << (length % static_cast<std::uint32_t>(widths[k]));
        }
        l.pathMask[i] = (1u << std::min(historyLengths_[i], 16)) - 1;
        l.rotate[i] = static_cast<std::uint32_t>(i % g.tableLogSize);
        l.rotateBack[i] = static_cast<std::uint32_t>(g.tableLogSize) - l.rotate[i];
        l.indexShift[i] = static_cast<std::uint32_t>(1 + i % (g.tableLogSize - 1));
        l.indexMask[i] = (1u << g.tableLogSize) - 1;
        l.tagShift[i] = static_cast<std::uint32_t>(tagBits_[i]);
        l.tagMask[i] = (1u << tagBits_[i]) - 1;
        l.tableBase[i] = static_cast<std::uint32_t>(i) << g.tableLogSize;
        l.usedTables |= 1u << i;
    }
    history_.fill(0);
    head_ = 0;
    pathHistory_ = 0;
    recentOutcomes_ = 0;
    useAltOnNewlyAllocated_ = 0;
    conditionalCount_ = 0;
    random_ = 0x2545F491u;
    targetCache_.assign(std::size_t{1} << g.indirectLogSize, TargetEntry{});
    lastTarget_.assign(std::size_t{1} << g.indirectLogSize, TargetEntry{});
    lookupPc_ = ~std::uint64_t{0};
    provider_ = alternate_ = -1;
}

static_assert(TagePredictor::kMaxTables == kTageLanes);

void TagePredictor::hashTables(std::uint64_t pc, TageLookup& lookup) const {
    const TageBranchHash b = branchHash(pc);
    hashTageTables(lanes_, b.pIndex, b.pTag, b.pathBits, lookup);
}

bool TagePredictor::decide(const TageLookup& lookup, std::uint32_t bimodalIndex,
                           std::uint32_t hits) {
    const bool basePrediction = bimodal_[bimodalIndex] >= 2;
    provider_ = alternate_ = -1;
    // The provider is the longest hit, the alternate the next longest.
    provider_ = static_cast<int>(std::bit_width(hits)) - 1;
    if (provider_ >= 0)
        alternate_ = static_cast<int>(std::bit_width(hits & ~(1u << provider_))) - 1;
    alternatePrediction_ = alternate_ >= 0
                               ? entry(alternate_, lookup.indices[alternate_]).counter >= 0
                               : basePrediction;
    if (provider_ < 0) {
        providerPrediction_ = prediction_ = basePrediction;
        return prediction_;
    }
    const EntryCounters& e = entry(provider_, lookup.indices[provider_]);
    providerPrediction_ = e.counter >= 0;
    const bool newlyAllocated = e.useful == 0 && (e.counter == 0 || e.counter == -1);
    prediction_ =
        newlyAllocated && useAltOnNewlyAllocated_ >= 0 ? alternatePrediction_ : providerPrediction_;
    return prediction_;
}

bool TagePredictor::predictConditional(std::uint64_t pc) {
    lookupPc_ = pc;
    bimodalIndex_ = bimodalIndex(pc);
    hashTables(pc, lookup_);
    // Every table is looked up and the hits collected in a mask, without a branch per table:
    // the loads are independent and overlap, where a longest-first search waited for each tag
    // (an L2 load) before it knew whether to go on, and mispredicted where it stopped.
    return decide(lookup_, bimodalIndex_, matchTageTables(lanes_, tableTags_.data(), lookup_));
}

void TagePredictor::updateConditional(std::uint64_t pc, bool taken) {
    if (pc != lookupPc_)
        predictConditional(pc); // the caller skipped predict: recreate the lookup state
    lookupPc_ = ~std::uint64_t{0};
    trainTables(lookup_, bimodalIndex_, taken);
    pushHistory(taken, pc);
}

int TagePredictor::trainTables(const TageLookup& lookup, std::uint32_t bimodalIndex, bool taken) {
    std::uint8_t& bimodal = bimodal_[bimodalIndex];
    bool allocateNew = prediction_ != taken && provider_ < geometry_.tableCount - 1;
    if (provider_ >= 0) {
        EntryCounters& e = entry(provider_, lookup.indices[provider_]);
        const bool newlyAllocated = e.useful == 0 && (e.counter == 0 || e.counter == -1);
        if (newlyAllocated) {
            if (providerPrediction_ != alternatePrediction_)
                saturatingUpdate(useAltOnNewlyAllocated_, alternatePrediction_ == taken, -8, 7);
            // The new entry was right and only distrusted: no need for a longer history.
            if (providerPrediction_ == taken)
                allocateNew = false;
        }
    }
    const int allocated = allocateNew ? allocate(lookup, taken) : -1;

    if (provider_ >= 0) {
        EntryCounters& e = entry(provider_, lookup.indices[provider_]);
        if (e.useful == 0) {
            // A not-yet-useful provider may be replaced soon: keep the alternate trained.
            if (alternate_ >= 0)
                saturatingUpdate(entry(alternate_, lookup.indices[alternate_]).counter, taken, -4,
                                 3);
            else if (taken && bimodal < 3)
                ++bimodal;
            else if (!taken && bimodal > 0)
                --bimodal;
        }
        saturatingUpdate(e.counter, taken, -4, 3);
        if (providerPrediction_ != alternatePrediction_) {
            if (providerPrediction_ == taken) {
                if (e.useful < 3)
                    ++e.useful;
            } else if (e.useful > 0) {
                --e.useful;
            }
        }
    } else if (taken) {
        if (bimodal < 3)
            ++bimodal;
    } else if (bimodal > 0) {
        --bimodal;
    }

    // Graceful aging: halving (rather than clearing) keeps the most useful entries protected.
    if ((++conditionalCount_ & ((std::uint64_t{1} << geometry_.usefulResetLog) - 1)) == 0)
        for (EntryCounters& e : counters_)
            e.useful >>= 1;
    return allocated;
}

int TagePredictor::allocate(const TageLookup& lookup, bool taken) {
    const int start = provider_ + 1;
    int first = -1;
    int second = -1;
    for (int j = start; j < geometry_.tableCount; ++j) {
        if (entry(j, lookup.indices[j]).useful != 0)
            continue;
        if (first < 0) {
            first = j;
        } else {
            second = j;
            break;
        }
    }
    if (first < 0) {
        // Every candidate is useful: age them so that a later misprediction finds room.
        for (int j = start; j < geometry_.tableCount; ++j) {
            EntryCounters& e = entry(j, lookup.indices[j]);
            if (e.useful > 0)
                --e.useful;
        }
        return -1;
    }
    const int chosen = second >= 0 && (nextRandom() & 1u) ? second : first;
    tableTags_[slot(chosen, lookup.indices[chosen])] =
        static_cast<std::uint16_t>(lookup.tags[chosen]);
    entry(chosen, lookup.indices[chosen]) =
        EntryCounters{static_cast<std::int8_t>(taken ? 0 : -1), 0};
    return chosen;
}

void TagePredictor::train(std::span<const BranchEvent> branches) {
    // Up to 32 conditional branches are gathered, with the path history each one sees; then
    // their outcomes enter the global history at once and hashAndPushTageRun() computes their
    // lookups with the folds in registers; then they are decided and trained in order. The
    // lookups depend only on the histories, the tables only on the lookups and outcomes.
    constexpr int kGroup = 32;
    std::array<TageBranchHash, kGroup> hashes;
    std::array<std::uint32_t, kGroup> bimodalIndices;
    std::array<TageLookup, kGroup> lookups;
    alignas(32) std::array<std::uint32_t, kTageLanes> leaving{};
    std::uint32_t outcomes = 0;
    int count = 0;
    const auto trainGroup = [&] {
        if (count == 0)
            return;
        // The outcomes enter the history as pushHistory() would put them; the bit leaving
        // table i at branch j is the one length(i) places behind j's own.
        const unsigned start = head_;
        for (int j = 0; j < count; ++j) {
            head_ = (head_ - 1) & (kHistoryBuffer - 1);
            history_[head_] = static_cast<std::uint8_t>((outcomes >> j) & 1u);
        }
        for (int i = 0; i < geometry_.tableCount; ++i)
            leaving[i] = historyBitsBackwards(history_.data(), kHistoryBuffer - 1,
                                              start + lanes_.length[i] - 1, count);
        hashAndPushTageRun(lanes_, hashes.data(), count, outcomes, leaving.data(), lookups.data());
        // Every branch's tags are read before any is trained, so that the reads overlap; an
        // entry allocated meanwhile is then put right in the hits of the branches after it.
        std::array<std::uint32_t, kGroup> hits;
        for (int j = 0; j < count; ++j)
            hits[j] = matchTageTables(lanes_, tableTags_.data(), lookups[j]);
        for (int j = 0; j < count; ++j) {
            decide(lookups[j], bimodalIndices[j], hits[j]);
            const int table =
                trainTables(lookups[j], bimodalIndices[j], ((outcomes >> j) & 1u) != 0);
            if (table < 0)
                continue;
            const std::uint32_t index = lookups[j].indices[table];
            const std::uint32_t tag = lookups[j].tags[table];
            for (int k = j + 1; k < count; ++k)
                if (lookups[k].indices[table] == index)
                    hits[k] = (hits[k] & ~(1u << table)) |
                              static_cast<std::uint32_t>(lookups[k].tags[table] == tag) << table;
        }
        count = 0;
        outcomes = 0;
    };
    for (const BranchEvent& branch : branches) {
        const std::uint64_t pc = branch.pc;
        switch (branch.kind) {
        case BranchKind::DirectConditional:
            if (!branch.trainPredictor) {
                trainGroup(); // trainBase() writes the bimodal table, which the group reads
                trainBimodal(pc, branch.taken);
                break;
            }
            hashes[count] = branchHash(pc);
            bimodalIndices[count] = bimodalIndex(pc);
            outcomes |= static_cast<std::uint32_t>(branch.taken) << count;
            ++count;
            recordOutcome(branch.taken, pc); // the rest of pushHistory()
            if (count == kGroup)
                trainGroup();
            break;
        case BranchKind::Indirect:
            // Its tables and the path history only; the prediction itself changes nothing.
            updateIndirect(pc, branch.target);
            break;
        case BranchKind::DirectUnconditional:
        case BranchKind::Call:
        case BranchKind::Return:
            if (branch.trainPredictor)
                trackUnconditional(pc);
            break;
        case BranchKind::None:
            break;
        }
    }
    trainGroup();
    lookupPc_ = ~std::uint64_t{0};
}

void TagePredictor::pushHistory(bool taken, std::uint64_t pc) {
    head_ = (head_ - 1) & (kHistoryBuffer - 1);
    history_[head_] = taken ? 1 : 0;
    // Each fold: shift the new bit in, take out the bit that leaves the history (at its length
    // mod the width), and wrap the bit shifted out at the top back into bit 0. All tables at
    // once (unused tables: no leaving bit and a zero mask, so their folds stay 0).
    pushTageFolds(lanes_, history_.data(), head_, kHistoryBuffer - 1, taken ? 1u : 0u);
    recordOutcome(taken, pc);
}

void TagePredictor::recordOutcome(bool taken, std::uint64_t pc) {
    trackUnconditional(pc);
    recentOutcomes_ = (recentOutcomes_ << 1) | (taken ? 1u : 0u);
}

void TagePredictor::trackUnconditional(std::uint64_t pc) {
    pathHistory_ = (pathHistory_ << 1) | ((pc ^ (pc >> 2)) & 1u);
}

std::size_t TagePredictor::indirectIndex(std::uint64_t pc) const {
    const int logSize = geometry_.indirectLogSize;
    std::uint64_t h =
        pc ^ (pc >> 12) ^ ((recentOutcomes_ & 0xFFF) << 1) ^ ((pathHistory_ & 0xFF) << 5);
    h ^= h >> logSize;
    return static_cast<std::size_t>(h & ((std::uint64_t{1} << logSize) - 1));
}

std::uint64_t TagePredictor::predictIndirect(std::uint64_t pc) const {
    const TargetEntry& context = targetCache_[indirectIndex(pc)];
    if (context.pc == pc)
        return context.target;
    const std::size_t mask = lastTarget_.size() - 1;
    const TargetEntry& last = lastTarget_[(pc ^ (pc >> 10)) & mask];
    return last.pc == pc ? last.target : 0;
}

void TagePredictor::updateIndirect(std::uint64_t pc, std::uint64_t target) {
    targetCache_[indirectIndex(pc)] = TargetEntry{pc, target};
    lastTarget_[(pc ^ (pc >> 10)) & (lastTarget_.size() - 1)] = TargetEntry{pc, target};
    trackUnconditional(pc);
}

std::uint32_t TagePredictor::nextRandom() {
    // xorshift32: cheap and deterministic.
    random_ ^= random_ << 13;
    random_ ^= random_ >> 17;
    random_ ^= random_ << 5;
    return random_;
}

void TagePredictor::trainBase(const TraceRecord& record) {
    if (record.branchKind == BranchKind::Indirect)
        updateIndirect(record.pc, record.branchTarget);
    else if (record.branchKind == BranchKind::DirectConditional)
        trainBimodal(record.pc, record.taken);
}

void TagePredictor::trainBimodal(std::uint64_t pc, bool taken) {
    std::uint8_t& counter = bimodal_[bimodalIndex(pc)];
    if (taken && counter < 3)
        ++counter;
    else if (!taken && counter > 0)
        --counter;
}

bool TagePredictor::predictAndUpdate(const TraceRecord& record) {
    switch (record.branchKind) {
    case BranchKind::DirectConditional: {
        const bool predicted = predictConditional(record.pc);
        updateConditional(record.pc, record.taken);
        return predicted != record.taken;
    }
    case BranchKind::Indirect: {
        const std::uint64_t predicted = predictIndirect(record.pc);
        updateIndirect(record.pc, record.branchTarget);
        return predicted != record.branchTarget;
    }
    case BranchKind::DirectUnconditional:
    case BranchKind::Call:
    case BranchKind::Return:
        trackUnconditional(record.pc);
        return false;
    case BranchKind::None:
        break;
    }
    return false;
}

} // namespace concorde
