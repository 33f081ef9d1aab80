#pragma once

#include "trace/InstrClass.h"
#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// Two independent long-latency loads separated by N fillers: the DiagSim "knee" kernels for
/// the ROB (`rob-knee`, fillers are independent int-alu ops), the load queue (`lq-knee`,
/// fillers are independent L1-hit loads) and the store queue (`sq-knee`, fillers are stores to
/// an L1-resident set).
///
/// One iteration is: load A; N fillers; load B; N fillers; loop-closing `jmp`. A and B each
/// load a line never touched before anywhere in the trace (a bijective hash of a counter over a
/// 4 GiB region, so the addresses look random to the prefetcher and miss to DRAM). A reads rax
/// and writes rax, B reads and writes rbx: each continues its own pointer chase from the
/// previous iteration, so iterations cannot overlap, while A and B of one iteration are
/// independent. Fillers read only read-only registers.
///
/// When the resource holds A, the fillers and B together, the two misses overlap and an
/// iteration costs about one memory latency; otherwise about two. The knee is at
/// ROB = N + 2, LQ = N + 2 (A, N loads, B) and SQ ≈ N (the N stores between A and B), given
/// that every other resource is large and the fillers execute faster than one memory latency.
class MissPairKernel : public MicrobenchKernel {
public:
    enum class Variant {
        Rob,        ///< `rob-knee`
        LoadQueue,  ///< `lq-knee`
        StoreQueue, ///< `sq-knee`
    };

    explicit MissPairKernel(Variant variant);

    std::string name() const override;
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

    InstrClass fillerClass() const;
    /// Line index (0 .. 2^26-1) inside the fresh region of the `index`-th long load of a trace;
    /// a bijection, so no line repeats.
    static std::uint64_t freshLine(std::uint64_t index, std::uint64_t seed);
    /// Long loads one trace can hold: 2^26 lines of the 4 GiB fresh region.
    static constexpr std::uint64_t kFreshLines = std::uint64_t(1) << 26;

protected:
    void validate(const KernelParams& params, std::uint64_t iterations) const override;
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
              KernelBuilder& builder) const override;

private:
    Variant variant_;
};

} // namespace concorde::synthetic
