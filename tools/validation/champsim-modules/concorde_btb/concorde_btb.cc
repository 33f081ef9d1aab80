#include "concorde_btb.h"

#include "analysis/BranchTargetPredictor.h"
#include "instruction.h"

namespace
{
std::uint64_t raw(champsim::address a) { return a.to<std::uint64_t>(); }

// ChampSim's branch types as BranchTargetPredictor's kinds. BRANCH_OTHER (an IP write that fits
// no other type) only uses the BTB, as a direct branch does.
concorde::BranchKind kind_of(uint8_t branch_type)
{
  switch (branch_type) {
  case BRANCH_DIRECT_JUMP:
    return concorde::BranchKind::DirectUnconditional;
  case BRANCH_INDIRECT:
    return concorde::BranchKind::Indirect;
  case BRANCH_DIRECT_CALL:
  case BRANCH_INDIRECT_CALL:
    return concorde::BranchKind::Call;
  case BRANCH_RETURN:
    return concorde::BranchKind::Return;
  default: // BRANCH_CONDITIONAL, BRANCH_OTHER
    return concorde::BranchKind::DirectConditional;
  }
}

// ChampSim knows an indirect call from its registers; ours infers it (CallType::Unknown) only
// where the trace cannot tell.
concorde::CallType call_of(uint8_t branch_type)
{
  return branch_type == BRANCH_INDIRECT_CALL ? concorde::CallType::Indirect : concorde::CallType::Direct;
}
} // namespace

concorde_btb::concorde_btb() : concorde_btb(nullptr) {}

concorde_btb::concorde_btb(O3_CPU* cpu)
    : btb(cpu), predictor_(std::make_unique<concorde::BranchTargetPredictor>()), rasCallers_(predictor_->spec().rasEntries)
{
}

concorde_btb::concorde_btb(concorde_btb&&) noexcept = default;
concorde_btb& concorde_btb::operator=(concorde_btb&&) noexcept = default;
concorde_btb::~concorde_btb() = default;

std::pair<champsim::address, bool> concorde_btb::btb_prediction(champsim::address ip, uint8_t branch_type)
{
  if (branch_type == NOT_BRANCH)
    return {champsim::address{}, false};
  const concorde::TargetPrediction prediction = predictor_->predict(raw(ip), kind_of(branch_type), call_of(branch_type));
  const champsim::address target{prediction.target};
  switch (branch_type) {
  case BRANCH_RETURN:
  case BRANCH_INDIRECT:
  case BRANCH_INDIRECT_CALL:
    // The return stack or the indirect table answers whether or not the BTB holds the branch.
    return {target, true};
  case BRANCH_DIRECT_JUMP:
  case BRANCH_DIRECT_CALL:
    return {target, prediction.btbHit};
  default: // conditional: the direction predictor decides whether the target is used
    return {target, false};
  }
}

void concorde_btb::update_btb(champsim::address ip, champsim::address branch_target, bool taken, uint8_t branch_type)
{
  const std::uint64_t pc = raw(ip);
  const std::uint64_t target = raw(branch_target);
  if (branch_type == NOT_BRANCH || !taken || target == 0)
    return; // as in BranchTargetPredictor::predictAndUpdate, only taken branches use the BTB
  const bool call = branch_type == BRANCH_DIRECT_CALL || branch_type == BRANCH_INDIRECT_CALL;
  std::uint64_t return_address = 0;
  if (call) {
    auto learned = callSize_.find(pc);
    return_address = pc + (learned != callSize_.end() ? learned->second : (branch_type == BRANCH_DIRECT_CALL ? 5 : 2));
  }
  predictor_->update(pc, kind_of(branch_type), true, target, return_address, call_of(branch_type));
  const auto size = static_cast<std::uint32_t>(rasCallers_.size());
  if (call) {
    rasCallers_[rasTop_] = pc;
    rasTop_ = (rasTop_ + 1) % size;
  } else if (branch_type == BRANCH_RETURN) {
    rasTop_ = (rasTop_ + size - 1) % size;
    const std::uint64_t caller = rasCallers_[rasTop_];
    if (caller != 0 && target > caller && target - caller <= 15)
      callSize_[caller] = target - caller;
  }
}
