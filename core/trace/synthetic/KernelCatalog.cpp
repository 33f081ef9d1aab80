#include "trace/synthetic/KernelCatalog.h"

#include "common/ConcordeError.h"
#include "trace/synthetic/BranchPatternKernel.h"
#include "trace/synthetic/BtbFootprintKernel.h"
#include "trace/synthetic/CallDepthKernel.h"
#include "trace/synthetic/ChainKernel.h"
#include "trace/synthetic/IndependentStreamKernel.h"
#include "trace/synthetic/IndirectDispatchKernel.h"
#include "trace/synthetic/MissPairKernel.h"
#include "trace/synthetic/PointerChaseKernel.h"
#include "trace/synthetic/StoreMissKernel.h"
#include "trace/synthetic/StridedAccessKernel.h"
#include "trace/synthetic/TakenGroupsKernel.h"

#include <stdexcept>

namespace concorde::synthetic {

KernelCatalog::KernelCatalog() {
    for (const InstrClass cls :
         {InstrClass::IntAlu, InstrClass::IntMul, InstrClass::IntDiv, InstrClass::FpAdd,
          InstrClass::FpMul, InstrClass::FpDiv, InstrClass::Simd})
        add(std::make_unique<ChainKernel>(cls));
    add(std::make_unique<PointerChaseKernel>(PointerChaseKernel::Variant::L1Chain));
    add(std::make_unique<IndependentStreamKernel>());
    add(std::make_unique<PointerChaseKernel>(PointerChaseKernel::Variant::WorkingSet));
    add(std::make_unique<StridedAccessKernel>(StridedAccessKernel::Access::Load));
    add(std::make_unique<StridedAccessKernel>(StridedAccessKernel::Access::Store));
    add(std::make_unique<MissPairKernel>(MissPairKernel::Variant::Rob));
    add(std::make_unique<MissPairKernel>(MissPairKernel::Variant::LoadQueue));
    add(std::make_unique<MissPairKernel>(MissPairKernel::Variant::StoreQueue));
    add(std::make_unique<StoreMissKernel>());
    add(std::make_unique<BranchPatternKernel>(BranchPatternKernel::Pattern::AlwaysTaken));
    add(std::make_unique<BranchPatternKernel>(BranchPatternKernel::Pattern::NeverTaken));
    add(std::make_unique<BranchPatternKernel>(BranchPatternKernel::Pattern::Alternating));
    add(std::make_unique<BranchPatternKernel>(BranchPatternKernel::Pattern::Random));
    add(std::make_unique<TakenGroupsKernel>());
    add(std::make_unique<BtbFootprintKernel>());
    add(std::make_unique<CallDepthKernel>());
    add(std::make_unique<IndirectDispatchKernel>());
}

void KernelCatalog::add(std::unique_ptr<MicrobenchKernel> kernel) {
    if (find(kernel->name()))
        throw std::logic_error("microbench kernel '" + kernel->name() + "' registered twice");
    kernels_.push_back(std::move(kernel));
}

const MicrobenchKernel* KernelCatalog::find(const std::string& name) const {
    for (const auto& kernel : kernels_)
        if (kernel->name() == name)
            return kernel.get();
    return nullptr;
}

const MicrobenchKernel& KernelCatalog::require(const std::string& name) const {
    if (const auto* kernel = find(name))
        return *kernel;
    throw usageError("unknown microbench kernel '" + name + "' (kernels: " + nameList() + ")");
}

std::string KernelCatalog::nameList() const {
    std::string list;
    for (const auto& kernel : kernels_)
        list += (list.empty() ? "" : ", ") + kernel->name();
    return list;
}

} // namespace concorde::synthetic
