#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// `stride-load`: independent 8-byte loads walking a working set of `ws_kb` kB with a constant
/// `stride` in bytes, wrapping to the start after ws/stride loads. Loads read only the
/// read-only base register (r14), so they never wait for each other: the kernel measures
/// load bandwidth of the level the set fits in, load-pipe widths, and the stride prefetcher.
///
/// One iteration is one pass (ws_kb * 1024 / stride loads); the default warm-up is one pass.
/// A loop-closing `jmp` follows every `unroll` loads, independently of pass boundaries.
class StridedLoadKernel : public MicrobenchKernel {
public:
    std::string name() const override { return "stride-load"; }
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

protected:
    void validate(const KernelParams& params, std::uint64_t iterations) const override;
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
              KernelBuilder& builder) const override;
};

} // namespace concorde::synthetic
