#include "analysis/BranchTargetPredictor.h"

#include "common/ConcordeError.h"
#include "common/Varint.h"

#include <algorithm>
#include <bit>
#include <string>

namespace concorde {
namespace {

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 31;
    x *= 0x7FB5'D329'728E'A185ull;
    x ^= x >> 27;
    return x;
}

/// The set of `pc` among `sets`: pc / 4 (instructions are at least 4-byte apart on most
/// ISAs' branch-dense code), XOR-folded into log2(sets) bits when sets is a power of two so that
/// code at power-of-two distances (functions 64 kB apart) does not all land in one set;
/// otherwise pc / 4 mod sets. XOR with the higher digits permutes the sets, so any aligned run
/// of `sets` consecutive 4-byte slots still maps one slot to every set.
std::size_t setOf(std::uint64_t pc, std::uint32_t sets) {
    std::uint64_t x = pc >> 2;
    if ((sets & (sets - 1)) != 0)
        return static_cast<std::size_t>(x % sets);
    const std::uint64_t mask = sets - 1;
    // log2(sets); not popcount(mask), which is a library call where the build does not assume
    // a POPCNT instruction, and this runs for every branch.
    const int bits = std::countr_zero(sets);
    if (bits == 0)
        return 0;
    std::uint64_t folded = 0;
    for (; x != 0; x >>= bits)
        folded ^= x & mask;
    return static_cast<std::size_t>(folded);
}

constexpr std::uint64_t kStateVersion = 1;

/// Recency rank of every entry within its set of `ways` (0: least recently used); empty
/// entries get no rank. Only this order matters to replacement, so it is what a state keeps.
template <typename Entry>
std::vector<std::uint32_t> ranksInSets(const std::vector<Entry>& entries, std::uint32_t ways,
                                       std::uint64_t empty) {
    std::vector<std::uint32_t> ranks(entries.size(), 0);
    if (ways == 0) // a perfect (size 0) structure may have 0 ways: no sets, and no endless loop
        return ranks;
    for (std::size_t set = 0; set + ways <= entries.size(); set += ways)
        for (std::uint32_t w = 0; w < ways; ++w) {
            if (entries[set + w].pc == empty)
                continue;
            for (std::uint32_t o = 0; o < ways; ++o)
                if (entries[set + o].pc != empty &&
                    entries[set + o].lastUse < entries[set + w].lastUse)
                    ++ranks[set + w];
        }
    return ranks;
}

/// Places restored entries (each with its set and rank) into `table` of `ways`-way sets, each
/// set's entries in rank order with stamps rank + 1; returns the largest stamp given. False when
/// a set receives more entries than it has ways.
template <typename Entry>
bool placeInSets(std::vector<Entry>& table, std::uint32_t ways,
                 std::vector<std::pair<std::size_t, std::pair<std::uint32_t, Entry>>>& placed,
                 std::uint64_t& maxStamp) {
    std::sort(placed.begin(), placed.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.first < b.second.first;
    });
    std::size_t filled = 0;
    for (std::size_t k = 0; k < placed.size(); ++k) {
        const std::size_t set = placed[k].first;
        filled = (k > 0 && placed[k - 1].first == set) ? filled + 1 : 0;
        if (filled >= ways)
            return false;
        Entry entry = placed[k].second.second;
        entry.lastUse = placed[k].second.first + 1;
        maxStamp = std::max(maxStamp, entry.lastUse);
        table[set * ways + filled] = entry;
    }
    return true;
}

} // namespace

BranchTargetPredictor::BranchTargetPredictor(const BranchTargetSpec& spec) : spec_(spec) {
    spec_.validate();
    reset();
}

void BranchTargetPredictor::reset() {
    btbSets_ = spec_.btbEntries ? spec_.btbEntries / spec_.btbWays : 0;
    indirectSets_ = spec_.indirectEntries ? spec_.indirectEntries / spec_.indirectWays : 0;
    btb_.assign(spec_.btbEntries, BtbEntry{});
    ras_.assign(spec_.rasEntries, 0);
    rasTop_ = 0;
    indirect_.assign(spec_.indirectEntries, IndirectEntry{});
    targetHistory_.assign(spec_.indirectHistory, 0);
    historyHead_ = 0;
    clock_ = 0;
}

const BranchTargetPredictor::BtbEntry* BranchTargetPredictor::findBtb(std::uint64_t pc) const {
    const BtbEntry* set = &btb_[setOf(pc, btbSets_) * spec_.btbWays];
    for (std::uint32_t w = 0; w < spec_.btbWays; ++w)
        if (set[w].pc == pc)
            return &set[w];
    return nullptr;
}

BranchTargetPredictor::BtbEntry& BranchTargetPredictor::lookupBtb(std::uint64_t pc, bool& hit) {
    BtbEntry* set = &btb_[setOf(pc, btbSets_) * spec_.btbWays];
    BtbEntry* victim = set;
    for (std::uint32_t w = 0; w < spec_.btbWays; ++w) {
        if (set[w].pc == pc) {
            hit = true;
            set[w].lastUse = ++clock_;
            return set[w];
        }
        if (set[w].lastUse < victim->lastUse)
            victim = &set[w];
    }
    hit = false;
    *victim = BtbEntry{pc, 0, ++clock_, false};
    return *victim;
}

std::uint64_t BranchTargetPredictor::historyHash() const {
    // The last indirectHistory targets, oldest to newest, hashed in order so the same targets in
    // another order are another context.
    std::uint64_t history = 0;
    const auto length = static_cast<std::uint32_t>(targetHistory_.size());
    for (std::uint32_t k = 0; k < length; ++k)
        history = mix(history ^ targetHistory_[(historyHead_ + k) % length]);
    return history;
}

std::size_t BranchTargetPredictor::indirectSet(std::uint64_t pc, std::uint64_t history) const {
    const std::uint64_t key = mix(pc ^ mix(history));
    return static_cast<std::size_t>(key % indirectSets_) * spec_.indirectWays;
}

std::uint64_t BranchTargetPredictor::predictIndirect(std::uint64_t pc,
                                                     std::uint64_t fallback) const {
    const std::uint64_t history = historyHash();
    const IndirectEntry* set = &indirect_[indirectSet(pc, history)];
    for (std::uint32_t w = 0; w < spec_.indirectWays; ++w)
        if (set[w].pc == pc && set[w].history == history)
            return set[w].target;
    return fallback;
}

void BranchTargetPredictor::trainIndirect(std::uint64_t pc, std::uint64_t target) {
    if (indirectSets_ == 0) // perfect: no table, no history
        return;
    const std::uint64_t history = historyHash();
    IndirectEntry* set = &indirect_[indirectSet(pc, history)];
    IndirectEntry* entry = nullptr;
    IndirectEntry* victim = set;
    for (std::uint32_t w = 0; w < spec_.indirectWays; ++w) {
        if (set[w].pc == pc && set[w].history == history)
            entry = &set[w];
        if (set[w].lastUse < victim->lastUse)
            victim = &set[w];
    }
    if (!entry)
        entry = victim;
    *entry = IndirectEntry{pc, history, target, ++clock_};
    const auto length = static_cast<std::uint32_t>(targetHistory_.size());
    if (length > 0) {
        targetHistory_[historyHead_] = target;
        historyHead_ = (historyHead_ + 1) % length;
    }
}

TargetPrediction BranchTargetPredictor::predict(std::uint64_t pc, BranchKind kind,
                                                CallType call) const {
    TargetPrediction p;
    if (kind == BranchKind::None)
        return p;
    const BtbEntry* entry = btbSets_ > 0 ? findBtb(pc) : nullptr;
    p.btbHit = btbSets_ == 0 || entry != nullptr;
    p.target = entry ? entry->target : 0; // the BTB's last target (0: none)
    const bool indirectCall =
        kind == BranchKind::Call &&
        (call == CallType::Indirect ||
         (call == CallType::Unknown && entry != nullptr && entry->indirectCall));
    if (kind == BranchKind::Indirect || indirectCall) {
        if (indirectSets_ > 0) {
            p.checked = true;
            p.target = predictIndirect(pc, p.target);
        }
    } else if (kind == BranchKind::Call) {
        p.checked = entry != nullptr; // a direct call's target is its last one
    } else if (kind == BranchKind::Return && !ras_.empty()) {
        const auto size = static_cast<std::uint32_t>(ras_.size());
        p.checked = true;
        p.target = ras_[(rasTop_ + size - 1) % size];
    }
    return p;
}

void BranchTargetPredictor::update(std::uint64_t pc, BranchKind kind, bool taken,
                                   std::uint64_t target, std::uint64_t returnAddress,
                                   CallType call) {
    if (kind == BranchKind::None || !taken)
        return;
    bool hit = true;
    std::uint64_t lastTarget = 0; // the BTB's target before this branch (0: none)
    BtbEntry* entry = nullptr;
    if (btbSets_ > 0) {
        entry = &lookupBtb(pc, hit);
        lastTarget = hit ? entry->target : 0;
        entry->target = target;
    }
    switch (kind) {
    case BranchKind::Call:
        if (call == CallType::Indirect) {
            if (entry)
                entry->indirectCall = true;
            trainIndirect(pc, target);
        } else if (call == CallType::Unknown && entry && hit && entry->indirectCall) {
            trainIndirect(pc, target);
        } else if (call == CallType::Unknown && entry && hit && lastTarget != target) {
            // Only an indirect call changes target: from now on the indirect table predicts it.
            entry->indirectCall = true;
            trainIndirect(pc, target);
        }
        if (!ras_.empty()) {
            ras_[rasTop_] = returnAddress;
            rasTop_ = (rasTop_ + 1) % static_cast<std::uint32_t>(ras_.size());
        }
        break;
    case BranchKind::Return:
        if (!ras_.empty()) {
            const auto size = static_cast<std::uint32_t>(ras_.size());
            rasTop_ = (rasTop_ + size - 1) % size;
        }
        break;
    case BranchKind::Indirect:
        trainIndirect(pc, target);
        break;
    default:
        break;
    }
}

TargetOutcome BranchTargetPredictor::predictAndUpdate(const TraceRecord& r) {
    if (!r.isBranch() || !r.taken)
        return TargetOutcome::Correct;
    const TargetPrediction prediction = predict(r.pc, r.branchKind);
    update(r.pc, r.branchKind, true, r.branchTarget, r.pc + r.size);
    return prediction.outcomeFor(r.branchTarget);
}

std::vector<std::uint8_t> BranchTargetPredictor::saveState() const {
    std::vector<std::uint8_t> out;
    varint::put(out, kStateVersion);
    for (const std::uint32_t field :
         {spec_.btbEntries, spec_.btbWays, spec_.rasEntries, spec_.indirectEntries,
          spec_.indirectWays, spec_.indirectHistory})
        varint::put(out, field);
    const auto signedDelta = [](std::uint64_t value, std::uint64_t from) {
        return varint::zigzag(static_cast<std::int64_t>(value - from));
    };

    // BTB entries by PC: PC deltas are small, targets are near their branch.
    const std::vector<std::uint32_t> btbRanks = ranksInSets(btb_, spec_.btbWays, kEmpty);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < btb_.size(); ++i)
        if (btb_[i].pc != kEmpty)
            order.push_back(i);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return btb_[a].pc < btb_[b].pc; });
    varint::put(out, order.size());
    std::uint64_t previous = 0;
    for (const std::size_t i : order) {
        const BtbEntry& e = btb_[i];
        varint::put(out, signedDelta(e.pc, previous));
        varint::put(out, (signedDelta(e.target, e.pc) << 1) | (e.indirectCall ? 1 : 0));
        varint::put(out, btbRanks[i]);
        previous = e.pc;
    }

    // Indirect entries by PC and history; the history is a hash, kept whole.
    const std::vector<std::uint32_t> indirectRanks =
        ranksInSets(indirect_, spec_.indirectWays, kEmpty);
    order.clear();
    for (std::size_t i = 0; i < indirect_.size(); ++i)
        if (indirect_[i].pc != kEmpty)
            order.push_back(i);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        // One PC has an entry per history.
        return indirect_[a].pc != indirect_[b].pc ? indirect_[a].pc < indirect_[b].pc
                                                  : indirect_[a].history < indirect_[b].history;
    });
    varint::put(out, order.size());
    previous = 0;
    for (const std::size_t i : order) {
        const IndirectEntry& e = indirect_[i];
        varint::put(out, signedDelta(e.pc, previous));
        for (int byte = 0; byte < 8; ++byte)
            out.push_back(static_cast<std::uint8_t>(e.history >> (8 * byte)));
        varint::put(out, signedDelta(e.target, e.pc));
        varint::put(out, indirectRanks[i]);
        previous = e.pc;
    }

    // The return stack and the target history, oldest first.
    previous = 0;
    for (std::size_t k = 0; k < ras_.size(); ++k) {
        const std::uint64_t address = ras_[(rasTop_ + k) % ras_.size()];
        varint::put(out, signedDelta(address, previous));
        previous = address;
    }
    for (std::size_t k = 0; k < targetHistory_.size(); ++k) {
        const std::uint64_t target = targetHistory_[(historyHead_ + k) % targetHistory_.size()];
        varint::put(out, signedDelta(target, previous));
        previous = target;
    }
    return out;
}

BranchTargetPredictor BranchTargetPredictor::restoreState(std::span<const std::uint8_t> bytes) {
    const std::uint8_t* cursor = bytes.data();
    const std::uint8_t* end = bytes.data() + bytes.size();
    const auto damaged = [](const char* field) {
        return badInput(std::string("the branch-target state is damaged (") + field + ")");
    };
    const auto next = [&](const char* field) {
        std::uint64_t value = 0;
        if (!varint::get(cursor, end, value))
            throw damaged(field);
        return value;
    };
    const auto small = [&](const char* field) {
        const std::uint64_t value = next(field);
        if (value > (std::uint64_t{1} << 24))
            throw damaged(field);
        return static_cast<std::uint32_t>(value);
    };
    const auto fromDelta = [](std::uint64_t from, std::uint64_t zigzagged) {
        return from + static_cast<std::uint64_t>(varint::unzigzag(zigzagged));
    };
    if (next("version") != kStateVersion)
        throw badInput("unsupported branch-target state version");
    BranchTargetSpec spec;
    for (std::uint32_t* field : {&spec.btbEntries, &spec.btbWays, &spec.rasEntries,
                                 &spec.indirectEntries, &spec.indirectWays, &spec.indirectHistory})
        *field = small("spec");
    BranchTargetPredictor restored(spec); // validates the spec
    std::uint64_t maxStamp = 0;

    const std::uint64_t btbCount = next("BTB entry count");
    if (btbCount > restored.btb_.size())
        throw damaged("BTB entry count");
    std::vector<std::pair<std::size_t, std::pair<std::uint32_t, BtbEntry>>> btb;
    std::uint64_t previous = 0;
    for (std::uint64_t k = 0; k < btbCount; ++k) {
        BtbEntry e;
        e.pc = fromDelta(previous, next("BTB"));
        const std::uint64_t packed = next("BTB");
        e.target = fromDelta(e.pc, packed >> 1);
        e.indirectCall = packed & 1;
        const std::uint32_t rank = small("BTB");
        if (e.pc == kEmpty || rank >= spec.btbWays)
            throw damaged("BTB");
        btb.push_back({setOf(e.pc, restored.btbSets_), {rank, e}});
        previous = e.pc;
    }
    if (!placeInSets(restored.btb_, spec.btbWays, btb, maxStamp))
        throw damaged("BTB sets");

    const std::uint64_t indirectCount = next("indirect entry count");
    if (indirectCount > restored.indirect_.size())
        throw damaged("indirect entry count");
    std::vector<std::pair<std::size_t, std::pair<std::uint32_t, IndirectEntry>>> indirect;
    previous = 0;
    for (std::uint64_t k = 0; k < indirectCount; ++k) {
        IndirectEntry e;
        e.pc = fromDelta(previous, next("indirect"));
        if (end - cursor < 8)
            throw damaged("indirect");
        for (int byte = 0; byte < 8; ++byte)
            e.history |= std::uint64_t{*cursor++} << (8 * byte);
        e.target = fromDelta(e.pc, next("indirect"));
        const std::uint32_t rank = small("indirect");
        if (e.pc == kEmpty || rank >= spec.indirectWays)
            throw damaged("indirect");
        const std::uint64_t key = mix(e.pc ^ mix(e.history));
        indirect.push_back({static_cast<std::size_t>(key % restored.indirectSets_), {rank, e}});
        previous = e.pc;
    }
    if (!placeInSets(restored.indirect_, spec.indirectWays, indirect, maxStamp))
        throw damaged("indirect sets");

    previous = 0;
    for (std::uint64_t& address : restored.ras_)
        previous = address = fromDelta(previous, next("return stack"));
    for (std::uint64_t& target : restored.targetHistory_)
        previous = target = fromDelta(previous, next("target history"));
    if (cursor != end)
        throw badInput("the branch-target state has trailing bytes");
    restored.clock_ = maxStamp;
    return restored;
}

} // namespace concorde
