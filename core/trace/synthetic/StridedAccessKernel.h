#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// `stride-load` and `stride-store`: independent 8-byte loads (or stores) walking a working set
/// of `ws_kb` kB with a constant `stride` in bytes, wrapping to the start after ws/stride
/// accesses. They read only read-only registers (r14 the load base; r15 and r13 the store base
/// and data), so they never wait for each other.
///
/// `stride-load` measures load bandwidth of the level the set fits in, load-pipe widths and the
/// stride prefetcher. `stride-store` measures the store side: with a set larger than every cache
/// each store reads its line for ownership from DRAM and, once the caches are full of written
/// lines, evicts a dirty line that is written back, so each line moves twice over the DRAM
/// channel.
///
/// One iteration is one pass (ws_kb * 1024 / stride accesses); the default warm-up is one pass.
/// A loop-closing `jmp` follows every `unroll` accesses, independently of pass boundaries.
class StridedAccessKernel : public MicrobenchKernel {
public:
    enum class Access {
        Load,  ///< `stride-load`
        Store, ///< `stride-store`
    };

    explicit StridedAccessKernel(Access access = Access::Load);

    std::string name() const override;
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

protected:
    void validate(const KernelParams& params, std::uint64_t iterations) const override;
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
                  KernelBuilder& builder) const override;

private:
    Access access_;
};

} // namespace concorde::synthetic
