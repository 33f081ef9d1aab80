#pragma once

#include "analysis/AnnotatedRegion.h"
#include "analysis/IssueGroup.h"
#include "bounds/WindowBounds.h"

#include <array>

namespace concorde {

/// Static issue-width and pipe bounds (docs/design.md §7), from per-window instruction counts:
///   width:  w · width / n_group            (ALU, FP, memory issue widths)
///   pipes:  with n_L loads, n_S stores, P_LS load-store pipes and P_L load pipes,
///           worst allocation  T = n_L/(P_L+P_LS) + n_S/P_LS,
///           best allocation   T = max(n_S/P_LS, (n_L+n_S)/(P_L+P_LS)),
///           bounds w / T: the best allocation gives the upper bound, the worst the lower.
/// Issue groups follow IssueGroup (shared with the reference simulator); a memory instruction
/// that stores counts as a store.
class IssueModel {
public:
    /// Per-window counts, computed once per region and reused for every width.
    struct Counts {
        std::vector<std::uint32_t> instructions;
        std::array<std::vector<float>, kIssueGroupCount> perGroup;
        std::vector<float> loads;  ///< memory instructions that only load
        std::vector<float> stores; ///< memory instructions that store
    };

    static Counts count(const AnnotatedRegion& region, std::uint32_t windowSize);
    static WindowSeries width(const Counts& counts, IssueGroup group, int width);
    struct PipeBounds {
        WindowSeries lower; ///< worst pipe allocation
        WindowSeries upper; ///< best pipe allocation
    };
    static PipeBounds pipes(const Counts& counts, int lsPipes, int loadPipes);
};

} // namespace concorde
