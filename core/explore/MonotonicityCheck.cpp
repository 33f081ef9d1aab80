#include "explore/MonotonicityCheck.h"

#include "common/ConcordeError.h"
#include "common/SplitMix64.h"
#include "explore/DatabasePredictor.h"
#include "features/ParameterGrid.h"
#include "params/ParameterSpace.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <span>
#include <tbb/parallel_for.h>
#include <tuple>

namespace concorde {
namespace {

/// Base configurations evaluated per batch: about a thousand configurations per region, big
/// enough for the batched prediction to pay off, small enough to keep every region's CPIs of a
/// batch in memory and to notice a cancel quickly.
constexpr std::size_t kBasesPerBatch = 8;

/// Keeps draws apart from other users of (seed, draw) hashes.
constexpr std::uint64_t kBaseSalt = 0x6d6f6e6f;

/// One violation before it is turned into a MonotonicityCheck::Violation: only the few kept.
struct Hit {
    double rise = 0;
    std::size_t unit = 0; ///< region (an index into the predictor's regions) or program slot
    std::size_t base = 0;
    std::size_t parameter = 0; ///< index into checkedParameters()
    std::size_t step = 0;      ///< index of the step's start in the growing order
    double fromCpi = 0;
    double toCpi = 0;
};

/// Largest rise first; ties broken by position, so the kept set never depends on the order
/// hits were found in.
bool worse(const Hit& a, const Hit& b) {
    if (a.rise != b.rise)
        return a.rise > b.rise;
    return std::tie(a.unit, a.base, a.parameter, a.step) <
           std::tie(b.unit, b.base, b.parameter, b.step);
}

void trimWorst(std::vector<Hit>& hits, std::size_t limit) {
    if (hits.size() <= limit)
        return;
    std::nth_element(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(limit), hits.end(),
                     worse);
    hits.resize(limit);
}

/// Per unit (a region or a program): per checked parameter, and the worst hits.
struct Tally {
    std::vector<MonotonicityCheck::ParameterTally> parameters;
    std::vector<Hit> worst;
    std::size_t worstLimit = 0;

    void add(const Hit& hit) {
        if (worstLimit == 0)
            return;
        worst.push_back(hit);
        if (worst.size() > 4 * worstLimit)
            trimWorst(worst, worstLimit);
    }
};

/// The sweeps of one batch: per parameter, where its values start in a base's block of
/// configurations, and the values in the growing order.
struct SweepLayout {
    std::vector<MonotonicityCheck::CheckedParameter> parameters;
    std::vector<std::vector<double>> values; ///< per parameter, in the growing order
    std::vector<std::size_t> offset;         ///< per parameter, within a base's block
    std::size_t perBase = 0;                 ///< configurations per base

    explicit SweepLayout(const ParameterGrid& grid)
        : parameters(MonotonicityCheck::checkedParameters()) {
        for (const auto& p : parameters) {
            std::vector<double> v = grid.values(p.id);
            if (p.shrinksToGrow)
                std::reverse(v.begin(), v.end());
            offset.push_back(perBase);
            perBase += v.size();
            values.push_back(std::move(v));
        }
    }

    /// Every sweep of every base in `bases`, base after base.
    std::vector<CoreConfig> configurations(std::span<const CoreConfig> bases) const {
        std::vector<CoreConfig> configs;
        configs.reserve(bases.size() * perBase);
        for (const CoreConfig& base : bases)
            for (std::size_t p = 0; p < parameters.size(); ++p)
                for (const double value : values[p]) {
                    configs.push_back(base);
                    configs.back().set(parameters[p].id, value);
                }
        return configs;
    }

    /// Checks the sweeps of the batch's CPIs `cpi` (one per configuration of configurations())
    /// of one unit; `firstBase` numbers the batch's first base.
    void check(std::span<const double> cpi, std::size_t unit, std::size_t firstBase,
               double tolerance, bool program, Tally& tally) const {
        const std::size_t bases = cpi.size() / perBase;
        for (std::size_t b = 0; b < bases; ++b)
            for (std::size_t p = 0; p < parameters.size(); ++p) {
                const auto sweep = cpi.subspan(b * perBase + offset[p], values[p].size());
                auto& counts = tally.parameters[p];
                double lowest = sweep[0];
                double sweepRise = 0;
                for (std::size_t k = 1; k < sweep.size(); ++k) {
                    const double rise = sweep[k] / sweep[k - 1] - 1.0;
                    if (rise > tolerance) {
                        ++(program ? counts.programViolations : counts.violations);
                        tally.add({rise, unit, firstBase + b, p, k - 1, sweep[k - 1], sweep[k]});
                    }
                    sweepRise = std::max(sweepRise, sweep[k] / lowest - 1.0);
                    lowest = std::min(lowest, sweep[k]);
                }
                if (program) {
                    counts.maxProgramRise = std::max(counts.maxProgramRise, sweepRise);
                } else {
                    ++counts.sweeps;
                    if (sweepRise > tolerance)
                        ++counts.sweepsOverTolerance;
                    counts.maxRise = std::max(counts.maxRise, sweepRise);
                }
            }
    }
};

nlohmann::json violationJson(const MonotonicityCheck::Violation& v) {
    const ParameterSpec& spec = ParameterSpace::spec(v.parameter);
    nlohmann::json json = {
        {"program", v.program}, {"parameter", spec.key}, {"from", v.from},
        {"to", v.to},           {"from_cpi", v.fromCpi}, {"to_cpi", v.toCpi},
        {"rise", v.rise()},     {"base", v.base},        {"config", v.config.toJson()}};
    if (v.region)
        json["region"] = *v.region;
    return json;
}

} // namespace

std::vector<MonotonicityCheck::CheckedParameter> MonotonicityCheck::checkedParameters() {
    std::vector<CheckedParameter> checked;
    for (const ParameterSpec& spec : ParameterSpace::all())
        if (const int direction = ParameterSpace::betterDirection(spec.id); direction != 0)
            checked.push_back({spec.id, direction < 0});
    return checked;
}

std::vector<CoreConfig> MonotonicityCheck::baseConfigs(const ParameterGrid& grid,
                                                       std::uint64_t seed, std::size_t count) {
    std::vector<CoreConfig> bases(count);
    for (std::size_t b = 0; b < count; ++b) {
        SplitMix64 random(SplitMix64::hash(seed, b, kBaseSalt));
        for (const ParameterSpec& spec : ParameterSpace::all()) {
            const auto& values = grid.values(spec.id);
            bases[b].set(spec.id, values[random.below(values.size())]);
        }
    }
    return bases;
}

MonotonicityCheck::Result MonotonicityCheck::run(const DatabasePredictor& predictor,
                                                 const Options& options, const JobControl& job) {
    if (options.bases == 0)
        throw usageError("the monotonicity check needs at least one base configuration");
    if (!(options.tolerance >= 0) || !std::isfinite(options.tolerance))
        throw usageError("the monotonicity check's tolerance must be a number ≥ 0");
    const auto started = std::chrono::steady_clock::now();

    const std::vector<std::string>& programs =
        options.programs.empty() ? predictor.programs() : options.programs;
    std::vector<std::size_t> regions; // predictor regions, program after program
    std::vector<std::size_t> programStart;
    for (const std::string& program : programs) {
        programStart.push_back(regions.size());
        const auto& own = predictor.regionsOf(program); // throws for an unknown program
        regions.insert(regions.end(), own.begin(), own.end());
    }
    programStart.push_back(regions.size());

    const SweepLayout layout(predictor.grid());
    const std::vector<CoreConfig> bases =
        baseConfigs(predictor.grid(), options.seed, options.bases);
    Tally blank;
    for (const CheckedParameter& p : layout.parameters)
        blank.parameters.push_back({p});
    blank.worstLimit = options.worst;
    std::vector<Tally> regionTally(regions.size(), blank);
    std::vector<Tally> programTally(programs.size(), blank);

    std::vector<double> cpi;
    std::vector<double> programCpi;
    for (std::size_t first = 0; first < bases.size(); first += kBasesPerBatch) {
        job.throwIfCancelled("check-monotone");
        const std::size_t count = std::min(kBasesPerBatch, bases.size() - first);
        const std::vector<CoreConfig> configs =
            layout.configurations(std::span(bases).subspan(first, count));
        const std::size_t n = configs.size();
        cpi.assign(regions.size() * n, 0.0);
        tbb::parallel_for(std::size_t(0), regions.size(), [&](std::size_t k) {
            const std::span<double> out = std::span(cpi).subspan(k * n, n);
            predictor.regionCpi(regions[k], configs, out);
            layout.check(out, regions[k], first, options.tolerance, false, regionTally[k]);
        });
        // Programs' CPIs: the instruction-weighted mean, in region order as everywhere else.
        for (std::size_t p = 0; p < programs.size(); ++p) {
            programCpi.assign(n, 0.0);
            double total = 0;
            for (std::size_t k = programStart[p]; k < programStart[p + 1]; ++k) {
                const auto weight = static_cast<double>(predictor.regions()[regions[k]].length);
                total += weight;
                for (std::size_t c = 0; c < n; ++c)
                    programCpi[c] += weight * cpi[k * n + c];
            }
            for (double& value : programCpi)
                value /= total;
            layout.check(programCpi, p, first, options.tolerance, true, programTally[p]);
        }
        job.report(first + count, bases.size(),
                   "base configuration " + std::to_string(first + count));
    }

    Result result;
    result.options = options;
    result.regions = regions.size();
    result.programs = programs.size();
    result.evaluations = regions.size() * bases.size() * layout.perBase;
    result.parameters = blank.parameters;
    std::vector<Hit> worst;
    std::vector<Hit> worstPrograms;
    const auto merge = [&](const std::vector<Tally>& tallies, std::vector<Hit>& hits) {
        for (const Tally& tally : tallies) {
            for (std::size_t p = 0; p < tally.parameters.size(); ++p) {
                const ParameterTally& from = tally.parameters[p];
                ParameterTally& into = result.parameters[p];
                into.sweeps += from.sweeps;
                into.violations += from.violations;
                into.sweepsOverTolerance += from.sweepsOverTolerance;
                into.maxRise = std::max(into.maxRise, from.maxRise);
                into.programViolations += from.programViolations;
                into.maxProgramRise = std::max(into.maxProgramRise, from.maxProgramRise);
            }
            hits.insert(hits.end(), tally.worst.begin(), tally.worst.end());
        }
        trimWorst(hits, options.worst);
        std::sort(hits.begin(), hits.end(), worse);
    };
    merge(regionTally, worst);
    merge(programTally, worstPrograms);
    for (const ParameterTally& tally : result.parameters) {
        result.sweeps += tally.sweeps;
        result.violations += tally.violations;
        result.programViolations += tally.programViolations;
    }

    const auto violation = [&](const Hit& hit, bool program) {
        Violation v;
        const CheckedParameter& parameter = layout.parameters[hit.parameter];
        if (program) {
            v.program = programs[hit.unit];
        } else {
            const auto& region = predictor.regions()[hit.unit];
            v.program = region.program;
            v.region = region.regionIndex;
        }
        v.parameter = parameter.id;
        v.base = hit.base;
        v.config = bases[hit.base];
        v.from = layout.values[hit.parameter][hit.step];
        v.to = layout.values[hit.parameter][hit.step + 1];
        v.fromCpi = hit.fromCpi;
        v.toCpi = hit.toCpi;
        return v;
    };
    for (const Hit& hit : worst)
        result.worst.push_back(violation(hit, false));
    for (const Hit& hit : worstPrograms)
        result.worstPrograms.push_back(violation(hit, true));
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

nlohmann::json MonotonicityCheck::Result::toJson() const {
    nlohmann::json perParameter = nlohmann::json::object();
    for (const ParameterTally& t : parameters)
        perParameter[ParameterSpace::spec(t.parameter.id).key] = {
            {"grows", t.parameter.shrinksToGrow ? "down" : "up"},
            {"sweeps", t.sweeps},
            {"violations", t.violations},
            {"sweeps_over_tolerance", t.sweepsOverTolerance},
            {"max_rise", t.maxRise},
            {"program_violations", t.programViolations},
            {"max_program_rise", t.maxProgramRise}};
    nlohmann::json worstJson = nlohmann::json::array();
    for (const Violation& v : worst)
        worstJson.push_back(violationJson(v));
    nlohmann::json worstProgramsJson = nlohmann::json::array();
    for (const Violation& v : worstPrograms)
        worstProgramsJson.push_back(violationJson(v));
    return {{"monotone", monotone()},
            {"tolerance", options.tolerance},
            {"bases", options.bases},
            {"seed", options.seed},
            {"regions", regions},
            {"programs", programs},
            {"evaluations", evaluations},
            {"sweeps", sweeps},
            {"violations", violations},
            {"program_violations", programViolations},
            {"per_parameter", perParameter},
            {"worst", worstJson},
            {"worst_programs", worstProgramsJson},
            {"seconds", seconds}};
}

} // namespace concorde
