#include "concorde_btb.h"

#include "instruction.h"

namespace
{
// BranchTargetPredictor.cpp's hash and set mapping, written again here (this file builds inside
// ChampSim, not against concorde's libraries).
std::uint64_t mix(std::uint64_t x)
{
  x ^= x >> 31;
  x *= 0x7FB5'D329'728E'A185ull;
  x ^= x >> 27;
  return x;
}

std::size_t set_of(std::uint64_t pc, std::uint32_t sets)
{
  std::uint64_t x = pc >> 2;
  const std::uint64_t mask = sets - 1;
  int bits = 0; // log2(sets); ChampSim builds as C++17, without std::countr_zero
  while ((std::uint32_t{1} << bits) < sets)
    ++bits;
  std::uint64_t folded = 0;
  for (; x != 0; x >>= bits)
    folded ^= x & mask;
  return static_cast<std::size_t>(folded);
}

std::uint64_t raw(champsim::address a) { return a.to<std::uint64_t>(); }
} // namespace

auto concorde_btb::findBtb(std::uint64_t pc) -> BtbEntry*
{
  BtbEntry* set = &btb_[set_of(pc, kBtbEntries / kBtbWays) * kBtbWays];
  for (std::uint32_t w = 0; w < kBtbWays; ++w)
    if (set[w].pc == pc)
      return &set[w];
  return nullptr;
}

auto concorde_btb::allocateBtb(std::uint64_t pc) -> BtbEntry&
{
  BtbEntry* set = &btb_[set_of(pc, kBtbEntries / kBtbWays) * kBtbWays];
  BtbEntry* victim = set;
  for (std::uint32_t w = 1; w < kBtbWays; ++w)
    if (set[w].lastUse < victim->lastUse)
      victim = &set[w];
  *victim = BtbEntry{pc, 0, 0};
  return *victim;
}

std::uint64_t concorde_btb::historyHash() const
{
  std::uint64_t history = 0;
  for (std::uint32_t k = 0; k < kIndirectHistory; ++k)
    history = mix(history ^ targetHistory_[(historyHead_ + k) % kIndirectHistory]);
  return history;
}

auto concorde_btb::findIndirect(std::uint64_t pc, std::uint64_t history) -> IndirectEntry*
{
  const std::uint64_t key = mix(pc ^ mix(history));
  IndirectEntry* set = &indirect_[static_cast<std::size_t>(key % (kIndirectEntries / kIndirectWays)) * kIndirectWays];
  for (std::uint32_t w = 0; w < kIndirectWays; ++w)
    if (set[w].pc == pc && set[w].history == history)
      return &set[w];
  return nullptr;
}

std::pair<champsim::address, bool> concorde_btb::btb_prediction(champsim::address ip, uint8_t branch_type)
{
  const std::uint64_t pc = raw(ip);
  if (branch_type == NOT_BRANCH)
    return {champsim::address{}, false};
  const BtbEntry* entry = findBtb(pc);
  const std::uint64_t btb_target = entry ? entry->target : 0;
  switch (branch_type) {
  case BRANCH_RETURN:
    // The return stack answers whether or not the BTB holds the return.
    return {champsim::address{ras_[(rasTop_ + kRasEntries - 1) % kRasEntries]}, true};
  case BRANCH_INDIRECT:
  case BRANCH_INDIRECT_CALL: {
    const IndirectEntry* hit = findIndirect(pc, historyHash());
    return {champsim::address{hit ? hit->target : btb_target}, true};
  }
  case BRANCH_DIRECT_JUMP:
  case BRANCH_DIRECT_CALL:
    return {champsim::address{btb_target}, entry != nullptr};
  default: // conditional: the direction predictor decides whether the target is used
    return {champsim::address{btb_target}, false};
  }
}

void concorde_btb::update_btb(champsim::address ip, champsim::address branch_target, bool taken, uint8_t branch_type)
{
  const std::uint64_t pc = raw(ip);
  const std::uint64_t target = raw(branch_target);
  if (branch_type == NOT_BRANCH || !taken || target == 0)
    return; // as in BranchTargetPredictor::predictAndUpdate, only taken branches use the BTB
  BtbEntry* entry = findBtb(pc);
  if (!entry)
    entry = &allocateBtb(pc);
  entry->target = target;
  entry->lastUse = ++clock_;
  if (branch_type == BRANCH_INDIRECT || branch_type == BRANCH_INDIRECT_CALL) {
    const std::uint64_t history = historyHash();
    IndirectEntry* slot = findIndirect(pc, history);
    if (!slot) {
      const std::uint64_t key = mix(pc ^ mix(history));
      IndirectEntry* set = &indirect_[static_cast<std::size_t>(key % (kIndirectEntries / kIndirectWays)) * kIndirectWays];
      slot = set;
      for (std::uint32_t w = 1; w < kIndirectWays; ++w)
        if (set[w].lastUse < slot->lastUse)
          slot = &set[w];
    }
    *slot = IndirectEntry{pc, history, target, ++clock_};
    targetHistory_[historyHead_] = target;
    historyHead_ = (historyHead_ + 1) % kIndirectHistory;
  }
  if (branch_type == BRANCH_DIRECT_CALL || branch_type == BRANCH_INDIRECT_CALL) {
    auto size = callSize_.find(pc);
    const std::uint64_t length = size != callSize_.end() ? size->second : (branch_type == BRANCH_DIRECT_CALL ? 5 : 2);
    ras_[rasTop_] = pc + length;
    rasCallers_[rasTop_] = pc;
    rasTop_ = (rasTop_ + 1) % kRasEntries;
  } else if (branch_type == BRANCH_RETURN) {
    rasTop_ = (rasTop_ + kRasEntries - 1) % kRasEntries;
    const std::uint64_t caller = rasCallers_[rasTop_];
    if (caller != 0 && target > caller && target - caller <= 15)
      callSize_[caller] = target - caller;
  }
}
