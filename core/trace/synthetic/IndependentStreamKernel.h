#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// `independent`: a stream of ops of one class (param `class`, default int-alu) with no RAW
/// dependency at all: every op reads only registers that no instruction of the kernel writes,
/// and results rotate over 8 GPRs (11 vector registers). Loads and stores touch a 4 kB
/// L1-resident set. Throughput is then limited only by widths: issue width of the class,
/// rename/decode/fetch/commit width (nop avoids execution units altogether).
///
/// One iteration is `unroll` ops and the loop-closing `jmp` (one taken branch per `unroll`
/// ops: keep `unroll` large when measuring fetch width).
class IndependentStreamKernel : public MicrobenchKernel {
public:
    std::string name() const override { return "independent"; }
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

    /// The classes `class` accepts.
    static std::vector<std::string> classChoices();

protected:
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
              KernelBuilder& builder) const override;
};

} // namespace concorde::synthetic
