#include "trace/synthetic/KernelBuilder.h"

#include "trace/RecordSink.h"

#include <array>
#include <stdexcept>
#include <string>

namespace concorde::synthetic {
namespace {

constexpr std::array<std::uint8_t, KernelBuilder::kRotatingGprCount> kRotatingGprs = {
    ArchReg::kRcx,   ArchReg::kRdx,   ArchReg::kRsi,    ArchReg::kRdi,
    ArchReg::gpr(8), ArchReg::gpr(9), ArchReg::gpr(10), ArchReg::gpr(11)};

void addAll(TraceRecord& record, std::initializer_list<std::uint8_t> sources) {
    for (const std::uint8_t reg : sources)
        if (reg != ArchReg::kNone && !record.addSource(reg))
            throw std::logic_error("synthetic kernel: too many source registers");
}

} // namespace

KernelBuilder::KernelBuilder(RecordSink* sink) : sink_(sink) {}

void KernelBuilder::beginMeasurement() {
    if (measuring_)
        throw std::logic_error("synthetic kernel: beginMeasurement() called twice");
    measuring_ = true;
    warmup_ = count_;
}

void KernelBuilder::commit(TraceRecord& record) {
    record.pc = pc_;
    pc_ = record.nextPc();
    ++count_;
    if (sink_)
        sink_->append(record);
}

std::uint8_t KernelBuilder::rotatingGpr(std::size_t slot) {
    return kRotatingGprs[slot % kRotatingGprCount];
}

std::uint8_t KernelBuilder::rotatingVector(std::size_t slot) {
    return ArchReg::vector(1 + static_cast<int>(slot % kRotatingVectorCount));
}

std::uint8_t KernelBuilder::instructionSize(InstrClass cls) {
    switch (cls) {
    case InstrClass::IntDiv: // div r64
    case InstrClass::Fence:  // mfence
        return 3;
    case InstrClass::Nop:
        return 1;
    case InstrClass::Branch:
        return kConditionalBranchSize;
    default: // lea r,[r+r]; imul r,r,imm8; vaddsd x,x,x; mov r,[r+disp8]; ...
        return 4;
    }
}

bool KernelBuilder::usesVectorRegisters(InstrClass cls) {
    return cls == InstrClass::FpAdd || cls == InstrClass::FpMul || cls == InstrClass::FpDiv ||
           cls == InstrClass::Simd;
}

void KernelBuilder::op(InstrClass cls, std::uint8_t destination,
                       std::initializer_list<std::uint8_t> sources) {
    if (cls == InstrClass::Load || cls == InstrClass::Store || cls == InstrClass::Branch)
        throw std::logic_error("synthetic kernel: op() is for computational classes only");
    TraceRecord record;
    record.instrClass = cls;
    record.size = instructionSize(cls);
    addAll(record, sources);
    if (destination != ArchReg::kNone)
        record.addDestination(destination);
    commit(record);
}

void KernelBuilder::load(std::uint8_t destination, std::initializer_list<std::uint8_t> sources,
                         std::uint64_t address) {
    TraceRecord record;
    record.instrClass = InstrClass::Load;
    record.size = instructionSize(InstrClass::Load);
    addAll(record, sources);
    record.addDestination(destination);
    record.addLoad(address, kAccessBytes);
    commit(record);
}

void KernelBuilder::store(std::initializer_list<std::uint8_t> sources, std::uint64_t address) {
    TraceRecord record;
    record.instrClass = InstrClass::Store;
    record.size = instructionSize(InstrClass::Store);
    addAll(record, sources);
    record.addStore(address, kAccessBytes);
    commit(record);
}

void KernelBuilder::compare(std::initializer_list<std::uint8_t> sources) {
    TraceRecord record;
    record.instrClass = InstrClass::IntAlu;
    record.size = kCompareSize;
    addAll(record, sources);
    record.addDestination(ArchReg::kFlags);
    commit(record);
}

void KernelBuilder::jump(std::uint64_t target, std::uint8_t size) {
    TraceRecord record;
    record.instrClass = InstrClass::Branch;
    record.branchKind = BranchKind::DirectUnconditional;
    record.size = size;
    record.taken = true;
    record.branchTarget = target;
    commit(record);
}

void KernelBuilder::call(std::uint64_t target) {
    TraceRecord record;
    record.instrClass = InstrClass::Branch;
    record.branchKind = BranchKind::Call;
    record.size = kCallSize;
    record.taken = true;
    record.branchTarget = target;
    returnAddresses_.push_back(pc_ + kCallSize);
    commit(record);
}

void KernelBuilder::ret() {
    if (returnAddresses_.empty())
        throw std::logic_error("KernelBuilder: ret() without an open call()");
    TraceRecord record;
    record.instrClass = InstrClass::Branch;
    record.branchKind = BranchKind::Return;
    record.size = kReturnSize;
    record.taken = true;
    record.branchTarget = returnAddresses_.back();
    returnAddresses_.pop_back();
    commit(record);
}

void KernelBuilder::indirectJump(std::uint64_t target,
                                 std::initializer_list<std::uint8_t> sources) {
    TraceRecord record;
    record.instrClass = InstrClass::Branch;
    record.branchKind = BranchKind::Indirect;
    record.size = kIndirectJumpSize;
    record.taken = true;
    record.branchTarget = target;
    addAll(record, sources);
    commit(record);
}

void KernelBuilder::conditionalBranch(bool taken, std::uint64_t target,
                                      std::initializer_list<std::uint8_t> sources) {
    TraceRecord record;
    record.instrClass = InstrClass::Branch;
    record.branchKind = BranchKind::DirectConditional;
    record.size = kConditionalBranchSize;
    record.taken = taken;
    record.branchTarget = target;
    addAll(record, sources);
    commit(record);
}

void KernelBuilder::chainOp(InstrClass cls) {
    switch (cls) {
    case InstrClass::IntAlu:
    case InstrClass::IntMul:
    case InstrClass::IntDiv:
        op(cls, kChainGpr, {kChainGpr, kConstGprA});
        return;
    case InstrClass::FpAdd:
    case InstrClass::FpMul:
    case InstrClass::FpDiv:
    case InstrClass::Simd:
        op(cls, kChainVector, {kChainVector, kConstVectorA});
        return;
    default:
        throw std::logic_error("synthetic kernel: no register chain for class " +
                               std::string(instrClassName(cls)));
    }
}

void KernelBuilder::independentOp(InstrClass cls, std::size_t slot) {
    // Word `slot` of the 4 kB hot set: the set stays L1-resident once warmed.
    const std::uint64_t word = (slot % (kHotSetBytes / kAccessBytes)) * kAccessBytes;
    switch (cls) {
    case InstrClass::IntAlu:
    case InstrClass::IntMul:
    case InstrClass::IntDiv:
        op(cls, rotatingGpr(slot), {kConstGprA, kConstGprB});
        return;
    case InstrClass::FpAdd:
    case InstrClass::FpMul:
    case InstrClass::FpDiv:
    case InstrClass::Simd:
        op(cls, rotatingVector(slot), {kConstVectorA, kConstVectorB});
        return;
    case InstrClass::Nop:
        op(cls, ArchReg::kNone, {});
        return;
    case InstrClass::Load:
        load(rotatingGpr(slot), {kLoadBase}, kHotLoadBase + word);
        return;
    case InstrClass::Store:
        store({kStoreBase, kConstGprB}, kHotStoreBase + word);
        return;
    default:
        throw std::logic_error("synthetic kernel: no independent form for class " +
                               std::string(instrClassName(cls)));
    }
}

} // namespace concorde::synthetic
