// A ChampSim BTB module with the branch-target front end of `concorde simulate` (issue 22):
// core/analysis/BranchTargetPredictor itself at BranchTargetSpec's defaults, so that a
// cross-check run with it compares the two cores with the same target predictions
// (`xcheck.py --matched-targets`). ChampSim's own basic_btb differs in three ways that change CPI
// on interpreters and big code (docs/validation.md): an 8K-entry BTB, a return stack that guesses
// return addresses from 1024 aliased call-size trackers, and a 4K-entry indirect table indexed by
// 12 bits of conditional-branch history.
//
// ChampSim asks for a prediction at fetch (btb_prediction) and trains at resolution (update_btb):
// BranchTargetPredictor's predict() and update(). Two things are this module's own: ChampSim's
// branch types tell direct from indirect calls (CallType), and its traces carry no instruction
// lengths, so a call's return address is learned here from its returns.
//
// Written for ChampSim commit 2ff2501's module interface (champsim::modules::btb). Not part of
// the concorde build: build-champsim.sh copies it into ChampSim's btb/ folder, together with the
// core sources named in core-sources.txt, and compiles the modules as C++20 with core/ on the
// include path.
#ifndef BTB_CONCORDE_BTB_H
#define BTB_CONCORDE_BTB_H

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "address.h"
#include "modules.h"

namespace concorde
{
class BranchTargetPredictor;
}

class concorde_btb : champsim::modules::btb
{
  // ChampSim also compiles this header as C++17 (its generated environment includes every
  // module's header with the global options), and BranchTargetPredictor.h needs C++20: only
  // concorde_btb.cc, a module source, includes it, so the predictor is held by pointer.
  std::unique_ptr<concorde::BranchTargetPredictor> predictor_; ///< BranchTargetSpec's defaults
  // The trace has no instruction lengths; a hardware RAS pushes the return address it knows at
  // decode. Learned from each call site's returns (a direct call is 5 bytes on x86-64): the call
  // that pushed each entry of the predictor's return stack, kept in step with it.
  std::vector<std::uint64_t> rasCallers_;
  std::uint32_t rasTop_ = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> callSize_;

public:
  concorde_btb();
  explicit concorde_btb(O3_CPU* cpu);
  concorde_btb(concorde_btb&&) noexcept;
  concorde_btb& operator=(concorde_btb&&) noexcept;
  ~concorde_btb();

  std::pair<champsim::address, bool> btb_prediction(champsim::address ip, uint8_t branch_type);
  void update_btb(champsim::address ip, champsim::address branch_target, bool taken, uint8_t branch_type);
};

#endif
