#pragma once

#include <cstdint>

namespace concorde {

/// Sizes of the branch-target front end (BranchTargetPredictor): the BTB, the return address
/// stack and the indirect-target predictor. Fixed structure, not sliders: a runtime value type
/// like MemorySystemSpec, whose default is what every production path uses (the reference
/// simulator takes it from PipelineSpec::targets, the trace analysis from RegionAnalyzer).
///
/// Defaults for an N1-class core. Arm has published the Cortex-A76/Neoverse N1 main BTB (6K
/// entries, behind 16- and 64-entry zero/one-bubble BTBs that are not modelled: only the
/// redirect at decode after a main-BTB miss is); the return stack and indirect predictor sizes
/// are not public, so they take common values for cores of that class (16 return addresses, a
/// 1K-entry history-indexed target table).
///
/// A size of 0 makes that structure perfect (every lookup hits / predicts right): how the
/// simulator behaved before the structures existed, and what kernels that isolate another
/// mechanism use.
struct BranchTargetSpec {
    std::uint32_t btbEntries = 6144;      ///< taken-branch targets; 0 = perfect
    std::uint32_t btbWays = 6;            ///< btbEntries must be a multiple
    std::uint32_t rasEntries = 16;        ///< return addresses (circular); 0 = perfect
    std::uint32_t indirectEntries = 1024; ///< (PC, history) → target; 0 = perfect
    std::uint32_t indirectWays = 4;       ///< indirectEntries must be a multiple
    /// Previous indirect-jump targets hashed with the PC to index the indirect table.
    std::uint32_t indirectHistory = 4;

    /// Throws a bad-input ConcordeError naming the first inconsistent field.
    void validate() const;

    bool operator==(const BranchTargetSpec&) const = default;
};

} // namespace concorde
