#pragma once

#include "analysis/BranchTargetSpec.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// What the target side of the front end made of one branch (BranchTargetPredictor).
enum class TargetOutcome : std::uint8_t {
    Correct,      ///< fetch was steered right (or the branch was not taken and needed no target)
    BtbMiss,      ///< taken, not in the BTB: fetch went on down the fall-through path until
                  ///< decode found the branch and redirected it (a bubble, not a flush)
    Mispredicted, ///< a wrong return or indirect target: a full misprediction at execute
};

/// What a caller knows of a call beyond BranchKind::Call. A trace record does not tell direct
/// from indirect calls (Unknown: the predictor infers an indirect call from a change of target,
/// see BranchTargetPredictor); an input that does (ChampSim's branch types) can say so.
enum class CallType : std::uint8_t {
    Unknown,  ///< the BTB entry's last target until a hit shows another (what a trace gives)
    Direct,   ///< always the BTB entry's last target; never handed to the indirect table
    Indirect, ///< the indirect table from the first instance on, as an indirect jump
};

/// What fetch gets for a branch from its PC alone (BranchTargetPredictor::predict).
struct TargetPrediction {
    /// Where fetch is steered if the branch is taken: the RAS top for a return, the indirect
    /// table's target for an indirect jump or indirect call (the BTB entry's last target when
    /// the table has no entry), otherwise the BTB entry's last target. 0 when there is none.
    std::uint64_t target = 0;
    /// The BTB holds the branch (always so with a perfect, size 0, BTB).
    bool btbHit = true;
    /// A `target` other than the real one is a misprediction: set for returns, indirect jumps
    /// and indirect calls, and calls that hit the BTB. Not for other direct branches (decode
    /// computes their target; a BTB miss is a bubble), nor when the structure that would predict
    /// is perfect (size 0).
    bool checked = false;

    /// The outcome for a taken branch that went to `actualTarget`.
    TargetOutcome outcomeFor(std::uint64_t actualTarget) const {
        if (checked && target != actualTarget)
            return TargetOutcome::Mispredicted;
        return btbHit ? TargetOutcome::Correct : TargetOutcome::BtbMiss;
    }
};

/// The branch-target front end of docs/design.md §6, shared by the trace analysis and the
/// reference simulator so both see the same events: a BTB, a return address stack (RAS) and an
/// indirect-target predictor, sized by BranchTargetSpec. Like BranchPredictor it is trace driven:
/// it sees each committed branch once, predicts it and immediately trains on the outcome (no
/// wrong-path updates, no speculative-history repair). The direction of conditional branches is
/// not its business (TagePredictor, SimplePredictor). predictAndUpdate() does both steps on a
/// trace record; predict() and update() are the two steps apart, for a model whose fetch and
/// resolution are separate calls (the ChampSim module tools/validation/champsim-modules/
/// concorde_btb): predict() changes nothing, and update() trains exactly as predictAndUpdate().
///
/// - BTB: `btbEntries` PC-tagged entries in `btbWays`-way sets (true LRU). The set is pc / 4
///   XOR-folded into log2(sets) bits (pc / 4 mod sets for a set count that is not a power of
///   two): any aligned run of `sets` consecutive 4-byte slots maps one slot to each set. Only taken
///   branches look it up and allocate; a taken branch of any kind that misses is a BtbMiss, unless
///   its target is also mispredicted. A not-taken conditional branch needs no target and touches
///   nothing.
/// - RAS: a circular stack of `rasEntries` return addresses. Every call pushes pc + size
///   (overwriting the oldest entry when full); every return pops and is Mispredicted when the
///   popped address is not its target. So a call chain deeper than the stack loses its oldest
///   return addresses: of D nested calls with distinct return sites, D − rasEntries returns
///   mispredict. (Self-recursion from one call site pushes one address repeatedly, so the
///   wrapped entries are still right.)
/// - Indirect jumps (BranchKind::Indirect): a `indirectWays`-way table of (PC, history) → target,
///   where the history is the last `indirectHistory` indirect-jump targets (any PC). When the
///   table has no entry, the BTB entry's last target is the prediction. A wrong or missing
///   prediction is Mispredicted.
/// - Calls: the trace does not tell direct from indirect calls, so a call is predicted by its BTB
///   entry's last target until a hit shows another target (only an indirect call can change
///   target): that call is Mispredicted and its entry is marked as an indirect call, whose later
///   instances the indirect table predicts like indirect jumps (their targets also enter the
///   history). The mark is lost with the entry. With a perfect (size 0) BTB calls are perfect.
///   A caller that knows a call's type says so with CallType (predict(), update()): a direct
///   call is then never handed to the indirect table, an indirect call is predicted and trained
///   by it from its first instance, as an indirect jump, and pushes its return address too.
///
/// Simplifications: one BTB level (the small zero-bubble BTBs in front of N1's main BTB are not
/// modelled, and a main-BTB hit steers fetch without a bubble); full-PC tags (no aliasing); the
/// RAS is never corrupted by wrong-path calls. Deterministic.
class BranchTargetPredictor {
public:
    /// Throws a bad-input ConcordeError for an inconsistent spec.
    explicit BranchTargetPredictor(const BranchTargetSpec& spec = {});

    /// Predicts the target side of the branch in `record`, then trains on it. Non-branches are
    /// Correct and change nothing. The same as predict() and update() on the record (a call's
    /// return address is pc + size), taken branches only, the outcome by
    /// TargetPrediction::outcomeFor.
    TargetOutcome predictAndUpdate(const TraceRecord& record);
    /// The prediction for a branch of `kind` at `pc` if it is taken, from the current state;
    /// changes nothing. `call` only matters for BranchKind::Call.
    TargetPrediction predict(std::uint64_t pc, BranchKind kind,
                             CallType call = CallType::Unknown) const;
    /// Trains on a resolved branch: a taken branch went to `target`; a call pushes
    /// `returnAddress`. Nothing for a non-branch or a branch not taken. The state it leaves does
    /// not depend on whether predict() was called before.
    void update(std::uint64_t pc, BranchKind kind, bool taken, std::uint64_t target,
                std::uint64_t returnAddress, CallType call = CallType::Unknown);
    /// Returns to the freshly constructed (cold) state.
    void reset();

    /// The state after the branches seen so far, with its spec, in a compact byte form for a
    /// region's warm state (WarmState): the valid BTB and indirect entries sorted by PC as
    /// varint deltas with their recency rank in their set, the return stack and the target
    /// history. A few bytes per entry.
    std::vector<std::uint8_t> saveState() const;
    /// A predictor that behaves from here on exactly as the one that saved `bytes` (the same
    /// spec, entries, recency order within each set, return stack and history; absolute LRU
    /// stamps are not kept, only their order, which is all replacement compares). A bad-input
    /// ConcordeError when the bytes are damaged.
    static BranchTargetPredictor restoreState(std::span<const std::uint8_t> bytes);

    const BranchTargetSpec& spec() const { return spec_; }

private:
    struct BtbEntry {
        std::uint64_t pc = kEmpty;
        std::uint64_t target = 0;
        std::uint64_t lastUse = 0;
        bool indirectCall = false; ///< a call seen to change target (or CallType::Indirect)
    };
    struct IndirectEntry {
        std::uint64_t pc = kEmpty;
        std::uint64_t history = 0;
        std::uint64_t target = 0;
        std::uint64_t lastUse = 0;
    };
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

    /// The BTB entry of `pc`, or null; changes nothing.
    const BtbEntry* findBtb(std::uint64_t pc) const;
    /// The BTB entry of `pc`, allocated (LRU victim) when missing; `hit` tells which.
    BtbEntry& lookupBtb(std::uint64_t pc, bool& hit);
    /// The hash of the target history, oldest to newest.
    std::uint64_t historyHash() const;
    /// The first way of the indirect table's set for (pc, history).
    std::size_t indirectSet(std::uint64_t pc, std::uint64_t history) const;
    /// The indirect table's target for `pc` under the current history, or `fallback`.
    std::uint64_t predictIndirect(std::uint64_t pc, std::uint64_t fallback) const;
    /// Trains the indirect table on `pc` going to `target` and appends it to the history.
    void trainIndirect(std::uint64_t pc, std::uint64_t target);

    BranchTargetSpec spec_;
    std::uint32_t btbSets_ = 0;
    std::uint32_t indirectSets_ = 0;
    std::vector<BtbEntry> btb_;
    std::vector<std::uint64_t> ras_;
    std::uint32_t rasTop_ = 0; ///< slot the next push writes
    std::vector<IndirectEntry> indirect_;
    std::vector<std::uint64_t> targetHistory_; ///< ring of the last indirect targets
    std::uint32_t historyHead_ = 0;
    std::uint64_t clock_ = 0; ///< LRU stamps
};

} // namespace concorde
