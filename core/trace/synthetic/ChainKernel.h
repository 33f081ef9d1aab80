#pragma once

#include "trace/InstrClass.h"
#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// `chain-<class>`: a dependent chain of one computational class (int-alu, int-mul, int-div,
/// fp-add, fp-mul, fp-div, simd). Each op reads the register the previous op wrote (rax, or
/// ymm0 for FP/SIMD) plus a read-only operand, so CPI equals the class's execution latency.
///
/// One iteration is `unroll` chained ops followed by a loop-closing `jmp`. The jump reads and
/// writes no register, so it is off the chain; it only adds one predictable taken branch per
/// `unroll` ops. (The load chain is the pointer-chase kernel `chain-load`.)
class ChainKernel : public MicrobenchKernel {
public:
    explicit ChainKernel(InstrClass cls);

    std::string name() const override;
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

protected:
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
              KernelBuilder& builder) const override;

private:
    InstrClass cls_;
};

} // namespace concorde::synthetic
