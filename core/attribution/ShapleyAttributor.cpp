#include "attribution/ShapleyAttributor.h"

#include "attribution/PermutationSampler.h"
#include "common/ConcordeError.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <mutex>
#include <set>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace concorde {

namespace {

/// Configurations per value-function call: large enough for a batched model to vectorise,
/// small enough to spread over cores. Also fixes the chunking of permutation pairs, so it must
/// not depend on the thread count (determinism).
constexpr std::size_t kBatch = 256;
/// Regions whose weighted marginals one task adds up in region order (fixed, for determinism).
constexpr std::size_t kRegionBlock = 16;
/// Upper bound on chunks of permutation pairs held in memory at once; only memory and
/// parallelism depend on it, never the results.
constexpr std::size_t kMaxWaveChunks = 32;

/// The parameter settings that switch one active player from baseline to target.
using Switch = std::vector<std::pair<ParamId, double>>;

void applySwitch(CoreConfig& config, const Switch& change) {
    for (const auto& [id, value] : change)
        config.set(id, value);
}

/// Per-player count, mean and sum of squared deviations: Welford's update for single samples,
/// Chan et al.'s formula to merge partial results (always merged in a fixed order).
struct Moments {
    double count = 0;
    std::vector<double> mean;
    std::vector<double> m2;

    explicit Moments(std::size_t players = 0) : mean(players, 0.0), m2(players, 0.0) {}

    void add(const std::vector<double>& x) {
        count += 1;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double d = x[i] - mean[i];
            mean[i] += d / count;
            m2[i] += d * (x[i] - mean[i]);
        }
    }

    void merge(const Moments& other) {
        if (other.count == 0)
            return;
        if (count == 0) {
            *this = other;
            return;
        }
        const double total = count + other.count;
        for (std::size_t i = 0; i < mean.size(); ++i) {
            const double d = other.mean[i] - mean[i];
            mean[i] += d * (other.count / total);
            m2[i] += other.m2[i] + d * d * (count * other.count / total);
        }
        count = total;
    }

    /// Standard error of the mean.
    double standardError(std::size_t i) const {
        if (count < 2)
            return 0;
        return std::sqrt(std::max(0.0, m2[i]) / (count - 1) / count);
    }
};

/// Counts evaluations over the whole run and reports them to the job.
class Progress {
public:
    Progress(const JobControl& job, std::uint64_t total) : job_(job), total_(total) {}

    bool stopped() const { return job_.cancelled(); }

    void advance(std::uint64_t evaluations) {
        if (!job_.reporting())
            return;
        // Counting and reporting under one lock keeps the reported counts non-decreasing.
        std::lock_guard lock(mutex_);
        done_ += evaluations;
        job_.report(static_cast<std::size_t>(std::min(done_, total_)),
                    static_cast<std::size_t>(total_), "evaluations");
    }

    void throwIfStopped() const { job_.throwIfCancelled("Shapley attribution"); }

private:
    const JobControl& job_;
    std::uint64_t total_;
    std::uint64_t done_ = 0;
    std::mutex mutex_;
};

/// A region to attribute, in the flat list of all regions of all programs.
struct RegionTask {
    const ValueFunction* value = nullptr;
    std::size_t program = 0;
    double weight = 0; ///< share of its program's instructions
};

/// A run of consecutive regions of one program (see kRegionBlock).
struct RegionBlock {
    std::size_t program = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// Attribution of one region or program over the active players.
struct Outcome {
    double baselineCpi = 0;
    double targetCpi = 0;
    std::vector<double> value;
    std::vector<double> standardError;
    std::uint64_t evaluations = 0;
};

long double binomial(std::size_t n, std::size_t k) {
    long double result = 1;
    for (std::size_t i = 1; i <= k; ++i)
        result = result * static_cast<long double>(n - k + i) / static_cast<long double>(i);
    return result;
}

/// Exact Shapley values of every region: all 2^n coalitions, each evaluated once.
std::vector<Outcome> runExact(const std::vector<RegionTask>& regions, const CoreConfig& baseline,
                              const std::vector<Switch>& switches, Progress& progress) {
    const std::size_t n = switches.size();
    const std::size_t coalitions = std::size_t(1) << n;
    // Up to 2^14 coalitions (2.6 MB) the configurations are built once and shared by every
    // region; beyond that (Mode::Exact with many players) each batch builds its own, so memory
    // stays bounded. Coalition m is coalition m without its lowest member, plus that member.
    const bool shared = n <= 14;
    std::vector<CoreConfig> sharedConfigs;
    if (shared) {
        sharedConfigs.assign(coalitions, baseline);
        for (std::size_t m = 1; m < coalitions; ++m) {
            sharedConfigs[m] = sharedConfigs[m & (m - 1)];
            applySwitch(sharedConfigs[m], switches[static_cast<std::size_t>(std::countr_zero(m))]);
        }
    }
    const auto batch = [&](std::size_t begin, std::size_t count, std::vector<CoreConfig>& local) {
        if (shared)
            return std::span<const CoreConfig>(sharedConfigs).subspan(begin, count);
        local.assign(count, baseline);
        for (std::size_t k = 0; k < count; ++k)
            for (std::size_t i = 0; i < n; ++i)
                if (((begin + k) >> i) & 1u)
                    applySwitch(local[k], switches[i]);
        return std::span<const CoreConfig>(local);
    };
    // |S|! (n−|S|−1)! / n! = 1 / (n · C(n−1, |S|)).
    std::vector<long double> weight(n);
    for (std::size_t s = 0; s < n; ++s)
        weight[s] = 1.0L / (static_cast<long double>(n) * binomial(n - 1, s));
    const std::size_t chunks = (coalitions + kBatch - 1) / kBatch;

    std::vector<Outcome> outcomes(regions.size());
    tbb::parallel_for(std::size_t(0), regions.size(), [&](std::size_t r) {
        std::vector<double> v(coalitions);
        tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t j) {
            if (progress.stopped())
                return;
            const std::size_t begin = j * kBatch;
            const std::size_t count = std::min(kBatch, coalitions - begin);
            std::vector<CoreConfig> local;
            regions[r].value->evaluate(batch(begin, count, local),
                                       std::span<double>(v).subspan(begin, count));
            progress.advance(count);
        });
        if (progress.stopped())
            return;
        std::vector<long double> sum(n, 0.0L);
        for (std::size_t m = 0; m + 1 < coalitions; ++m) {
            const long double w = weight[static_cast<std::size_t>(std::popcount(m))];
            for (std::size_t i = 0; i < n; ++i)
                if (!((m >> i) & 1u))
                    sum[i] += w * static_cast<long double>(v[m | (std::size_t(1) << i)] - v[m]);
        }
        Outcome& out = outcomes[r];
        out.baselineCpi = v.front();
        out.targetCpi = v.back();
        out.value.assign(sum.begin(), sum.end());
        out.standardError.assign(n, 0.0);
        out.evaluations = coalitions;
    });
    return outcomes;
}

/// One chunk of permutation pairs and the configurations their walks visit.
struct PairChunk {
    std::size_t pairs = 0;
    std::vector<std::uint32_t> order; ///< pairs × n: the forward permutation of each pair
    std::vector<CoreConfig> configs;  ///< pairs × 2(n−1): forward walk, then reverse walk
};

struct SamplingResult {
    std::vector<Outcome> regions;
    std::vector<Outcome> programs;
};

/// Permutation sampling with antithetic pairs (see the class comment).
SamplingResult runSampling(const std::vector<RegionTask>& regions,
                           const std::vector<RegionBlock>& blocks, std::size_t programCount,
                           const CoreConfig& baseline, const CoreConfig& target,
                           const std::vector<Switch>& switches, std::size_t pairs,
                           std::uint64_t seed, Progress& progress) {
    const std::size_t n = switches.size();
    const std::size_t steps = n - 1;       // evaluations of one walk between its two ends
    const std::size_t perPair = 2 * steps; // forward and reverse walks
    const std::size_t pairsPerChunk = std::max<std::size_t>(1, (kBatch + perPair - 1) / perPair);
    const std::size_t chunks = (pairs + pairsPerChunk - 1) / pairsPerChunk;
    const std::size_t regionCount = regions.size();

    // The two ends of every walk, once per region.
    std::vector<double> baseCpi(regionCount), targetCpi(regionCount);
    tbb::parallel_for(std::size_t(0), regionCount, [&](std::size_t r) {
        if (progress.stopped())
            return;
        const CoreConfig ends[2] = {baseline, target};
        double values[2] = {0, 0};
        regions[r].value->evaluate(ends, values);
        baseCpi[r] = values[0];
        targetCpi[r] = values[1];
        progress.advance(2);
    });
    progress.throwIfStopped();

    std::vector<Moments> regionMoments(regionCount, Moments(n));
    std::vector<Moments> programMoments(programCount, Moments(n));
    std::vector<std::vector<std::size_t>> programBlocks(programCount);
    for (std::size_t b = 0; b < blocks.size(); ++b)
        programBlocks[blocks[b].program].push_back(b);
    const PermutationSampler sampler(seed);
    const std::size_t waveChunks = std::clamp<std::size_t>(
        (std::size_t(1) << 22) / std::max<std::size_t>(1, regionCount * n), 1, kMaxWaveChunks);

    for (std::size_t c0 = 0; c0 < chunks; c0 += waveChunks) {
        const std::size_t wave = std::min(chunks, c0 + waveChunks) - c0;
        std::vector<PairChunk> data(wave);
        tbb::parallel_for(std::size_t(0), wave, [&](std::size_t w) {
            PairChunk& chunk = data[w];
            const std::size_t first = (c0 + w) * pairsPerChunk;
            chunk.pairs = std::min(pairsPerChunk, pairs - first);
            chunk.order.resize(chunk.pairs * n);
            chunk.configs.reserve(chunk.pairs * perPair);
            for (std::size_t q = 0; q < chunk.pairs; ++q) {
                const std::span<std::uint32_t> order(chunk.order.data() + q * n, n);
                sampler.permutation(first + q, order);
                CoreConfig config = baseline;
                for (std::size_t k = 0; k < steps; ++k) {
                    applySwitch(config, switches[order[k]]);
                    chunk.configs.push_back(config);
                }
                config = baseline;
                for (std::size_t k = 0; k < steps; ++k) {
                    applySwitch(config, switches[order[n - 1 - k]]);
                    chunk.configs.push_back(config);
                }
            }
        });

        // Per (chunk, block) task: region moments for the chunk, and the block's
        // instruction-weighted sum of pair marginals (in region order) for the program level.
        std::vector<Moments> chunkRegion(wave * regionCount, Moments(n));
        std::vector<double> partial(wave * blocks.size() * pairsPerChunk * n, 0.0);
        tbb::parallel_for(std::size_t(0), wave * blocks.size(), [&](std::size_t task) {
            if (progress.stopped())
                return;
            const std::size_t w = task / blocks.size();
            const RegionBlock& block = blocks[task % blocks.size()];
            const PairChunk& chunk = data[w];
            std::vector<double> v(chunk.configs.size());
            std::vector<double> forward(n), reverse(n), pair(n);
            double* blockSum = partial.data() + task * pairsPerChunk * n;
            for (std::size_t r = block.begin; r < block.end; ++r) {
                regions[r].value->evaluate(chunk.configs, v);
                Moments& moments = chunkRegion[w * regionCount + r];
                for (std::size_t q = 0; q < chunk.pairs; ++q) {
                    const std::uint32_t* order = chunk.order.data() + q * n;
                    const double* walk = v.data() + q * perPair;
                    // Marginals telescope: the walk ends on the same target value every time.
                    double previous = baseCpi[r];
                    for (std::size_t k = 0; k < n; ++k) {
                        const double current = k < steps ? walk[k] : targetCpi[r];
                        forward[order[k]] = current - previous;
                        previous = current;
                    }
                    previous = baseCpi[r];
                    for (std::size_t k = 0; k < n; ++k) {
                        const double current = k < steps ? walk[steps + k] : targetCpi[r];
                        reverse[order[n - 1 - k]] = current - previous;
                        previous = current;
                    }
                    for (std::size_t i = 0; i < n; ++i)
                        pair[i] = 0.5 * (forward[i] + reverse[i]);
                    moments.add(pair);
                    for (std::size_t i = 0; i < n; ++i)
                        blockSum[q * n + i] += regions[r].weight * pair[i];
                }
                progress.advance(chunk.configs.size());
            }
        });
        progress.throwIfStopped();

        // Merge in chunk order, blocks in order: the fixed order makes results thread-independent.
        std::vector<double> programPair(n);
        for (std::size_t w = 0; w < wave; ++w) {
            for (std::size_t r = 0; r < regionCount; ++r)
                regionMoments[r].merge(chunkRegion[w * regionCount + r]);
            for (std::size_t p = 0; p < programCount; ++p) {
                Moments chunkProgram(n);
                for (std::size_t q = 0; q < data[w].pairs; ++q) {
                    std::fill(programPair.begin(), programPair.end(), 0.0);
                    for (std::size_t b : programBlocks[p]) {
                        const double* blockSum =
                            partial.data() + (w * blocks.size() + b) * pairsPerChunk * n;
                        for (std::size_t i = 0; i < n; ++i)
                            programPair[i] += blockSum[q * n + i];
                    }
                    chunkProgram.add(programPair);
                }
                programMoments[p].merge(chunkProgram);
            }
        }
    }

    SamplingResult result;
    const auto outcome = [&](const Moments& m, double base, double targ, std::uint64_t evals) {
        Outcome out;
        out.baselineCpi = base;
        out.targetCpi = targ;
        out.value = m.mean;
        for (std::size_t i = 0; i < n; ++i)
            out.standardError.push_back(m.standardError(i));
        out.evaluations = evals;
        return out;
    };
    const std::uint64_t perRegion = 2 + pairs * perPair;
    std::vector<double> programBase(programCount, 0.0), programTarget(programCount, 0.0);
    std::vector<std::uint64_t> programEvaluations(programCount, 0);
    for (std::size_t r = 0; r < regionCount; ++r) {
        result.regions.push_back(outcome(regionMoments[r], baseCpi[r], targetCpi[r], perRegion));
        programBase[regions[r].program] += regions[r].weight * baseCpi[r];
        programTarget[regions[r].program] += regions[r].weight * targetCpi[r];
        programEvaluations[regions[r].program] += perRegion;
    }
    for (std::size_t p = 0; p < programCount; ++p)
        result.programs.push_back(
            outcome(programMoments[p], programBase[p], programTarget[p], programEvaluations[p]));
    return result;
}

} // namespace

ShapleyAttributor::ShapleyAttributor(PlayerSet players, const CoreConfig& baseline,
                                     const CoreConfig& target, Options options)
    : players_(std::move(players)), baseline_(baseline), target_(target), options_(options) {
    for (std::size_t p = 0; p < players_.size(); ++p)
        if (players_.differs(p, baseline_, target_))
            active_.push_back(p);
    const std::size_t n = active_.size();
    switch (options_.mode) {
    case Mode::Exact:
        method_ = AttributionMethod::Exact;
        break;
    case Mode::Sampling:
        // With fewer than two active players every order is the same order: exact is free.
        method_ = n >= 2 ? AttributionMethod::Sampling : AttributionMethod::Exact;
        break;
    case Mode::Auto:
        method_ =
            n <= options_.exactMaxPlayers ? AttributionMethod::Exact : AttributionMethod::Sampling;
        break;
    }
    if (method_ == AttributionMethod::Sampling && options_.permutations < 4)
        throw usageError("Shapley sampling needs at least 4 permutations (2 antithetic pairs) "
                         "to estimate a standard error; got " +
                         std::to_string(options_.permutations));
}

std::size_t ShapleyAttributor::permutations() const {
    if (method_ == AttributionMethod::Exact)
        return 0;
    return (options_.permutations + 1) / 2 * 2;
}

std::uint64_t ShapleyAttributor::evaluationsPerRegion() const {
    const std::size_t n = active_.size();
    if (method_ == AttributionMethod::Exact)
        return std::uint64_t(1) << n;
    return 2 + static_cast<std::uint64_t>(permutations()) * (n - 1);
}

CoreConfig ShapleyAttributor::coalition(const std::vector<bool>& members) const {
    if (members.size() != players_.size())
        throw usageError("a coalition needs one membership flag per player (" +
                         std::to_string(players_.size()) + "), got " +
                         std::to_string(members.size()));
    CoreConfig config = baseline_;
    for (std::size_t p = 0; p < players_.size(); ++p)
        if (members[p])
            for (ParamId id : players_[p].params)
                config.set(id, target_.value(id));
    return config;
}

AttributionReport ShapleyAttributor::attribute(std::span<const ProgramValue> programs,
                                               const JobControl& job) const {
    std::set<std::string> names;
    for (const ProgramValue& program : programs) {
        program.validate();
        if (!names.insert(program.program).second)
            throw usageError("two programs are called '" + program.program + "'");
    }
    std::vector<RegionTask> regions;
    std::vector<RegionBlock> blocks;
    for (std::size_t p = 0; p < programs.size(); ++p) {
        const double total = static_cast<double>(programs[p].instructions());
        const std::size_t first = regions.size();
        for (const RegionValue& region : programs[p].regions)
            regions.push_back(
                {region.value.get(), p, static_cast<double>(region.instructions) / total});
        for (std::size_t b = first; b < regions.size(); b += kRegionBlock)
            blocks.push_back({p, b, std::min(regions.size(), b + kRegionBlock)});
    }
    std::vector<Switch> switches;
    for (std::size_t p : active_) {
        Switch change;
        for (ParamId id : players_[p].params)
            change.emplace_back(id, target_.value(id));
        switches.push_back(std::move(change));
    }

    Progress progress(job, evaluationsPerRegion() * regions.size());
    progress.throwIfStopped();
    std::vector<Outcome> regionOutcomes;
    std::vector<Outcome> programOutcomes;
    const auto run = [&] {
        if (method_ == AttributionMethod::Exact) {
            regionOutcomes = runExact(regions, baseline_, switches, progress);
            progress.throwIfStopped();
            // The program is the instruction-weighted mean of its regions, added in order.
            programOutcomes.assign(programs.size(), Outcome{});
            for (Outcome& program : programOutcomes) {
                program.value.assign(active_.size(), 0.0);
                program.standardError.assign(active_.size(), 0.0);
            }
            for (std::size_t r = 0; r < regions.size(); ++r) {
                Outcome& program = programOutcomes[regions[r].program];
                const Outcome& region = regionOutcomes[r];
                const double w = regions[r].weight;
                program.baselineCpi += w * region.baselineCpi;
                program.targetCpi += w * region.targetCpi;
                for (std::size_t i = 0; i < active_.size(); ++i)
                    program.value[i] += w * region.value[i];
                program.evaluations += region.evaluations;
            }
        } else {
            SamplingResult result =
                runSampling(regions, blocks, programs.size(), baseline_, target_, switches,
                            permutations() / 2, options_.seed, progress);
            regionOutcomes = std::move(result.regions);
            programOutcomes = std::move(result.programs);
        }
    };
    if (options_.threads > 0) {
        tbb::task_arena arena(static_cast<int>(options_.threads));
        arena.execute(run);
    } else {
        run();
    }
    progress.throwIfStopped();

    const auto toAttribution = [&](const Outcome& outcome) {
        Attribution a;
        a.baselineCpi = outcome.baselineCpi;
        a.targetCpi = outcome.targetCpi;
        a.method = method_;
        a.permutations = permutations();
        a.evaluations = outcome.evaluations;
        std::size_t next = 0; // position in active_
        for (std::size_t p = 0; p < players_.size(); ++p) {
            PlayerAttribution entry;
            entry.player = players_[p].name;
            if (next < active_.size() && active_[next] == p) {
                entry.active = true;
                entry.value = outcome.value[next];
                entry.standardError = outcome.standardError[next];
                ++next;
            }
            a.players.push_back(std::move(entry));
        }
        return a;
    };
    AttributionReport report;
    report.baseline = baseline_;
    report.target = target_;
    report.players = players_;
    report.method = method_;
    report.permutations = permutations();
    report.seed = options_.seed;
    std::size_t r = 0;
    for (std::size_t p = 0; p < programs.size(); ++p) {
        ProgramAttribution program;
        program.program = programs[p].program;
        program.instructions = programs[p].instructions();
        program.total = toAttribution(programOutcomes[p]);
        for (const RegionValue& region : programs[p].regions)
            program.regions.push_back(
                {region.region, region.instructions, toAttribution(regionOutcomes[r++])});
        report.programs.push_back(std::move(program));
    }
    return report;
}

ProgramAttribution ShapleyAttributor::attribute(const ProgramValue& program,
                                                const JobControl& job) const {
    AttributionReport report = attribute(std::span<const ProgramValue>(&program, 1), job);
    return std::move(report.programs.front());
}

Attribution ShapleyAttributor::attribute(const ValueFunction& value,
                                         const JobControl& job) const {
    // A non-owning pointer: the caller keeps `value` alive for the duration of the call.
    ProgramValue program{
        "program",
        {{"0", 1,
          std::shared_ptr<const ValueFunction>(std::shared_ptr<const ValueFunction>(), &value)}}};
    return attribute(program, job).total;
}

} // namespace concorde
