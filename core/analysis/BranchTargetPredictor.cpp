#include "analysis/BranchTargetPredictor.h"

#include <bit>

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
    const int bits = std::popcount(mask);
    if (bits == 0)
        return 0;
    std::uint64_t folded = 0;
    for (; x != 0; x >>= bits)
        folded ^= x & mask;
    return static_cast<std::size_t>(folded);
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

std::uint64_t BranchTargetPredictor::predictIndirect(std::uint64_t pc, std::uint64_t fallback,
                                                     std::uint64_t target) {
    // The history: the last indirectHistory targets, oldest to newest, hashed in order so the
    // same targets in another order are another context.
    std::uint64_t history = 0;
    const auto length = static_cast<std::uint32_t>(targetHistory_.size());
    for (std::uint32_t k = 0; k < length; ++k)
        history = mix(history ^ targetHistory_[(historyHead_ + k) % length]);
    const std::uint64_t key = mix(pc ^ mix(history));
    IndirectEntry* set =
        &indirect_[static_cast<std::size_t>(key % indirectSets_) * spec_.indirectWays];
    IndirectEntry* entry = nullptr;
    IndirectEntry* victim = set;
    for (std::uint32_t w = 0; w < spec_.indirectWays; ++w) {
        if (set[w].pc == pc && set[w].history == history)
            entry = &set[w];
        if (set[w].lastUse < victim->lastUse)
            victim = &set[w];
    }
    const std::uint64_t predicted = entry ? entry->target : fallback;
    if (!entry)
        entry = victim;
    *entry = IndirectEntry{pc, history, target, ++clock_};
    if (length > 0) {
        targetHistory_[historyHead_] = target;
        historyHead_ = (historyHead_ + 1) % length;
    }
    return predicted;
}

TargetOutcome BranchTargetPredictor::predictAndUpdate(const TraceRecord& r) {
    if (!r.isBranch() || !r.taken)
        return TargetOutcome::Correct;
    bool hit = true;
    std::uint64_t lastTarget = 0; // the BTB's target before this branch (0: none)
    BtbEntry* entry = nullptr;
    if (btbSets_ > 0) {
        entry = &lookupBtb(r.pc, hit);
        lastTarget = hit ? entry->target : 0;
        entry->target = r.branchTarget;
    }
    bool wrongTarget = false;
    switch (r.branchKind) {
    case BranchKind::Call:
        if (entry && hit && entry->indirectCall) {
            if (indirectSets_ > 0)
                wrongTarget = predictIndirect(r.pc, lastTarget, r.branchTarget) != r.branchTarget;
        } else if (entry && hit && lastTarget != r.branchTarget) {
            // Only an indirect call changes target: from now on the indirect table predicts it.
            wrongTarget = true;
            entry->indirectCall = true;
            if (indirectSets_ > 0)
                predictIndirect(r.pc, lastTarget, r.branchTarget);
        }
        if (!ras_.empty()) {
            ras_[rasTop_] = r.pc + r.size;
            rasTop_ = (rasTop_ + 1) % static_cast<std::uint32_t>(ras_.size());
        }
        break;
    case BranchKind::Return:
        if (!ras_.empty()) {
            const auto size = static_cast<std::uint32_t>(ras_.size());
            rasTop_ = (rasTop_ + size - 1) % size;
            wrongTarget = ras_[rasTop_] != r.branchTarget;
        }
        break;
    case BranchKind::Indirect:
        if (indirectSets_ > 0)
            wrongTarget = predictIndirect(r.pc, lastTarget, r.branchTarget) != r.branchTarget;
        break;
    default:
        break;
    }
    if (wrongTarget)
        return TargetOutcome::Mispredicted;
    return hit ? TargetOutcome::Correct : TargetOutcome::BtbMiss;
}

} // namespace concorde
