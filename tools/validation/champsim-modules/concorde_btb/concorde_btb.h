// A ChampSim BTB module with the branch-target front end of `concorde simulate` (issue 22): the
// structures and algorithms of core/analysis/BranchTargetPredictor at BranchTargetSpec's
// defaults, so that a cross-check run with it compares the two cores with the same target
// predictions (`xcheck.py --matched-targets`). ChampSim's own basic_btb differs in three ways
// that change CPI on interpreters and big code (docs/validation.md): an 8K-entry BTB, a return
// stack that guesses return addresses from 1024 aliased call-size trackers, and a 4K-entry
// indirect table indexed by 12 bits of conditional-branch history.
//
// Written for ChampSim commit 2ff2501's module interface (champsim::modules::btb). Not part of
// the concorde build: build-champsim.sh copies it into ChampSim's btb/ folder.
#ifndef BTB_CONCORDE_BTB_H
#define BTB_CONCORDE_BTB_H

#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "address.h"
#include "modules.h"

class concorde_btb : champsim::modules::btb
{
  // BranchTargetSpec's defaults.
  static constexpr std::uint32_t kBtbEntries = 6144;
  static constexpr std::uint32_t kBtbWays = 6;
  static constexpr std::uint32_t kRasEntries = 16;
  static constexpr std::uint32_t kIndirectEntries = 1024;
  static constexpr std::uint32_t kIndirectWays = 4;
  static constexpr std::uint32_t kIndirectHistory = 4;

  struct BtbEntry {
    std::uint64_t pc = ~std::uint64_t{0};
    std::uint64_t target = 0;
    std::uint64_t lastUse = 0;
  };
  struct IndirectEntry {
    std::uint64_t pc = ~std::uint64_t{0};
    std::uint64_t history = 0;
    std::uint64_t target = 0;
    std::uint64_t lastUse = 0;
  };

  std::vector<BtbEntry> btb_ = std::vector<BtbEntry>(kBtbEntries);
  std::vector<IndirectEntry> indirect_ = std::vector<IndirectEntry>(kIndirectEntries);
  std::array<std::uint64_t, kRasEntries> ras_{};        ///< return addresses, circular
  std::array<std::uint64_t, kRasEntries> rasCallers_{}; ///< the call that pushed each
  std::uint32_t rasTop_ = 0;
  std::array<std::uint64_t, kIndirectHistory> targetHistory_{};
  std::uint32_t historyHead_ = 0;
  std::uint64_t clock_ = 0;
  // The trace has no instruction lengths; a hardware RAS pushes the return address it knows at
  // decode. Learned from each call site's returns (a direct call is 5 bytes on x86-64).
  std::unordered_map<std::uint64_t, std::uint64_t> callSize_;

  BtbEntry* findBtb(std::uint64_t pc);
  BtbEntry& allocateBtb(std::uint64_t pc);
  std::uint64_t historyHash() const;
  IndirectEntry* findIndirect(std::uint64_t pc, std::uint64_t history);

public:
  using btb::btb;
  concorde_btb() : btb(nullptr) {}

  std::pair<champsim::address, bool> btb_prediction(champsim::address ip, uint8_t branch_type);
  void update_btb(champsim::address ip, champsim::address branch_target, bool taken, uint8_t branch_type);
};

#endif
