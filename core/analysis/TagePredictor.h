#pragma once

#include "analysis/BranchEvent.h"
#include "analysis/BranchPredictor.h"
#include "analysis/TageLanes.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// Sizes of a TagePredictor; the defaults are the configuration TagePredictor describes.
struct TageGeometry {
    int bimodalLogSize = 13;  ///< log2 of bimodal entries
    int tableCount = 12;      ///< tagged tables, 0..16 (0 = bimodal only)
    int tableLogSize = 10;    ///< log2 of entries per tagged table
    int minHistory = 4;       ///< history length of the shortest tagged table
    int maxHistory = 640;     ///< history length of the longest tagged table (< 2048)
    int minTagBits = 8;       ///< table i has min(minTagBits + i/2, 15) tag bits
    int usefulResetLog = 18;  ///< halve all u counters every 2^usefulResetLog branches
    int indirectLogSize = 10; ///< log2 of entries of each indirect-target table
    bool operator==(const TageGeometry&) const = default;
};

/// A TAGE conditional-branch predictor (Seznec & Michaud, "A case for (partially) TAgged
/// GEometric history length branch prediction", JILP 2006), plus a small indirect-target
/// predictor.
///
/// Direction prediction, default geometry (~25 KiB of direction state):
/// - base: 8K 2-bit bimodal counters indexed by PC;
/// - 12 tagged tables of 1K entries, each entry a 3-bit signed counter, a 2-bit usefulness
///   counter and a tag of 8..13 bits (8 + i/2 for table i); table i is indexed and tagged with
///   the last L(i) conditional-branch outcomes, L geometric from 4 to 640
///   (4 6 10 16 25 40 64 101 160 254 403 640), folded into the index/tag width with circular
///   shift registers (folded histories), and the index also mixes up to 16 bits of path history;
/// - prediction: the longest matching table provides; the next longest match (or the bimodal
///   table) is the alternate. A provider that looks newly allocated (weak counter, u = 0) is
///   overridden by the alternate while a global 4-bit USE_ALT_ON_NA counter says that pays;
/// - update: the provider's counter moves toward the outcome (and the alternate's too when the
///   provider is not useful); u rises when the provider was right and the alternate wrong, and
///   falls in the opposite case; on a misprediction one entry is allocated in a longer table
///   with u = 0 (the first such table, or with probability 1/2 the second), otherwise the u of
///   every longer table is decremented; every 2^18 conditional branches all u are halved.
/// - global history: one bit per conditional branch (its outcome); path history: one PC bit per
///   branch of any kind.
///
/// Indirect jumps: a target cache indexed by PC ⊕ recent outcomes ⊕ path history (1K entries,
/// PC-tagged), falling back to a per-PC last-target table; a wrong or missing target is a
/// misprediction. Calls (direct or indirect), returns and direct jumps are perfect here. The
/// analysis and the reference simulator use only the conditional verdicts and take targets from
/// BranchTargetPredictor; the target tables stay for standalone use and because they are part of
/// the saved state (WarmState) that existing traces carry.
///
/// Deterministic: the allocation choice uses an internal xorshift generator reset with the
/// predictor.
class TagePredictor final : public BranchPredictor {
public:
    static constexpr int kMaxTables = 16;

    using Geometry = TageGeometry;

    /// Throws a bad-input ConcordeError for an impossible geometry.
    explicit TagePredictor(const Geometry& geometry = Geometry());

    bool predictAndUpdate(const TraceRecord& record) override;
    void reset() override;

    /// Predicts the direction of the conditional branch at `pc` (true = taken). Must be followed
    /// by updateConditional() for the same branch before the next prediction.
    bool predictConditional(std::uint64_t pc);
    /// Trains on the outcome of the branch last predicted and appends it to the history.
    void updateConditional(std::uint64_t pc, bool taken);
    /// Predicted target of the indirect jump at `pc`; 0 when there is no prediction.
    std::uint64_t predictIndirect(std::uint64_t pc) const;
    /// Trains the target tables on the actual target and records the jump in the path history.
    void updateIndirect(std::uint64_t pc, std::uint64_t target);
    /// Records a branch that needs no prediction (direct jump, call, return) in the path history.
    void trackUnconditional(std::uint64_t pc);
    /// Cheap training for a long functional warm-up: a conditional branch updates only its
    /// bimodal counter and an indirect jump only its target tables; the tagged tables and the
    /// histories are untouched. Branches met long before a region then start from the right
    /// bias, at a fraction of predictAndUpdate()'s cost.
    void trainBase(const TraceRecord& record);
    /// Trains on a run of branches in order, each as predictAndUpdate() (or trainBase() when
    /// its trainPredictor is false) would: the same state, bit for bit. Faster: the tables'
    /// indices and tags depend only on the histories, which depend only on the outcomes, so the
    /// histories run ahead and a group of conditional branches is hashed before any of it is
    /// trained, and the processor overlaps the branches' work instead of waiting on each one.
    void train(std::span<const BranchEvent> branches);

    const Geometry& geometry() const { return geometry_; }

    /// The whole learnt state (tables, folded and global histories, indirect targets) as bytes,
    /// preceded by the geometry: what a functional warm-up hands to a region (WarmState).
    std::vector<std::uint8_t> saveState() const;
    /// Restores saveState() bytes. A bad-input ConcordeError when they are damaged or were
    /// saved with another geometry; the predictor is then unchanged.
    void restoreState(std::span<const std::uint8_t> bytes);
    /// Global-history length of tagged table `table`.
    int historyLength(int table) const { return historyLengths_[table]; }
    int tagBits(int table) const { return tagBits_[table]; }

private:
    static constexpr unsigned kHistoryBuffer = 2048; ///< power of two > maxHistory
    static constexpr std::uint16_t kEmptyTag = 0xFFFF;

    /// A tagged entry's counters; its tag lives in tableTags_ (struct of arrays: the search reads
    /// only tags, and 12 tables of 2-byte tags fit in an L1 cache where 4-byte entries did not).
    struct EntryCounters {
        std::int8_t counter = 0; ///< -4..3, taken when ≥ 0
        std::uint8_t useful = 0; ///< 0..3
    };
    struct TargetEntry {
        std::uint64_t pc = ~std::uint64_t{0};
        std::uint64_t target = 0;
    };

    std::size_t slot(int table, std::uint32_t index) const {
        return (static_cast<std::size_t>(table) << geometry_.tableLogSize) + index;
    }
    EntryCounters& entry(int table, std::uint32_t index) { return counters_[slot(table, index)]; }
    std::uint32_t bimodalIndex(std::uint64_t pc) const {
        return static_cast<std::uint32_t>((pc ^ (pc >> geometry_.bimodalLogSize)) &
                                          ((std::uint64_t{1} << geometry_.bimodalLogSize) - 1));
    }
    std::size_t indirectIndex(std::uint64_t pc) const;
    /// What hashing the conditional branch at `pc` takes besides the folds, now.
    TageBranchHash branchHash(std::uint64_t pc) const {
        return {static_cast<std::uint32_t>(pc ^ (pc >> 24)),
                static_cast<std::uint32_t>(pc ^ (pc >> 16)),
                static_cast<std::uint32_t>(pathHistory_)};
    }
    /// Every table's index and tag for the conditional branch at `pc`, from the histories now.
    void hashTables(std::uint64_t pc, TageLookup& lookup) const;
    /// Finds the provider and the alternate of `lookup` among `hits` (matchTageTables() of the
    /// tables as they are now) and returns the prediction (kept in provider_ … prediction_ for
    /// trainTables()).
    bool decide(const TageLookup& lookup, std::uint32_t bimodalIndex, std::uint32_t hits);
    /// Trains the tables on the outcome of the branch last decided; the histories are not
    /// touched (pushHistory()). Returns the table in which an entry was allocated, or -1.
    int trainTables(const TageLookup& lookup, std::uint32_t bimodalIndex, bool taken);
    /// Returns the table of the new entry, or -1 when none was allocated.
    int allocate(const TageLookup& lookup, bool taken);
    /// trainBase() of a conditional branch: its bimodal counter only.
    void trainBimodal(std::uint64_t pc, bool taken);
    /// Appends an outcome to the global, folded and path histories.
    void pushHistory(bool taken, std::uint64_t pc);
    /// The part of pushHistory() the indirect tables read: the path and recent-outcome bits.
    void recordOutcome(bool taken, std::uint64_t pc);
    std::uint32_t nextRandom();

    Geometry geometry_;
    std::vector<int> historyLengths_;
    std::vector<int> tagBits_;
    std::vector<std::uint8_t> bimodal_; ///< 2-bit counters, taken when ≥ 2
    /// Every tagged entry's tag, kEmptyTag if none, plus one of padding (matchTageTables).
    std::vector<std::uint16_t> tableTags_;
    std::vector<EntryCounters> counters_; ///< and its counters, at the same slot
    /// Per-table hashing constants and folded histories (index, tag and tag − 1 widths), all
    /// kMaxTables wide, so that one branch's lookups and history update are done for every
    /// table in a few vector operations.
    TageLanes lanes_;
    /// Circular, newest at head_, with 3 bytes of padding (pushTageFolds reads 4 at a time).
    std::array<std::uint8_t, kHistoryBuffer + 3> history_{};
    unsigned head_ = 0;
    std::uint64_t pathHistory_ = 0;
    std::uint64_t recentOutcomes_ = 0;       ///< last 64 conditional outcomes (indirect indexing)
    std::int8_t useAltOnNewlyAllocated_ = 0; ///< -8..7; ≥ 0 means trust the alternate
    std::uint64_t conditionalCount_ = 0;
    std::uint32_t random_ = 0x2545F491u;
    std::vector<TargetEntry> targetCache_;
    std::vector<TargetEntry> lastTarget_;

    // Lookup state of the branch being predicted, consumed by updateConditional().
    std::uint64_t lookupPc_ = ~std::uint64_t{0};
    std::uint32_t bimodalIndex_ = 0;
    TageLookup lookup_;
    int provider_ = -1;
    int alternate_ = -1;
    bool providerPrediction_ = false;
    bool alternatePrediction_ = false;
    bool prediction_ = false;
};

} // namespace concorde
