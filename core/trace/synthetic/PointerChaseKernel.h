#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// A pointer chase: `mov rax, [rax]` over the 64-byte lines of a working set of `ws_kb` kB,
/// visited in one random cyclic order (param `seed`). Each load's address register is the
/// previous load's destination, so loads serialise and CPI equals the load-to-use latency of
/// the level the working set fits in; the random order defeats the stride prefetcher.
///
/// Two registrations: `pointer-chase` (any working set up to 1 GiB) and `chain-load` (the
/// load member of the dependent-chain family: a working set of at most 16 kB, L1-resident).
/// One iteration is one pass over the working set; the default warm-up is one pass, so the
/// caches hold what fits when measurement starts. A loop-closing `jmp` (no registers, off the
/// chain) follows every `unroll` loads, independently of pass boundaries.
class PointerChaseKernel : public MicrobenchKernel {
public:
    enum class Variant {
        WorkingSet, ///< `pointer-chase`
        L1Chain,    ///< `chain-load`
    };

    explicit PointerChaseKernel(Variant variant = Variant::WorkingSet);

    std::string name() const override;
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

protected:
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
              KernelBuilder& builder) const override;

private:
    Variant variant_;
};

} // namespace concorde::synthetic
