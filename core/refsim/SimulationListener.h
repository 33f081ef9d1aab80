#pragma once

#include "refsim/SimulationEvents.h"

namespace concorde {

/// Observes a simulation through its events (llvm-mca style): collectors of CPI, per-window
/// IPC or stall breakdowns are listeners, never code inside the pipeline. Every callback has an
/// empty default so a listener implements only what it needs.
class SimulationListener {
public:
    virtual ~SimulationListener() = default;
    virtual void onStart(std::uint64_t instructions) { (void)instructions; }
    virtual void onCycle(const CycleEvent& event) { (void)event; }
    virtual void onIssue(const IssueEvent& event) { (void)event; }
    virtual void onCommit(const CommitEvent& event) { (void)event; }
    virtual void onMispredict(const MispredictEvent& event) { (void)event; }
    virtual void onRedirect(const RedirectEvent& event) { (void)event; }
    /// The last instruction committed; `cycles` is the simulated length of the region.
    virtual void onFinish(std::uint64_t cycles) { (void)cycles; }
};

} // namespace concorde
