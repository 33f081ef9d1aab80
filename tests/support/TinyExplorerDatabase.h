#pragma once
// A small but real feature database for explorer tests: two programs traced from synthetic
// kernels ("alpha" with three regions, "beta" with two), built by DatabaseBuilder on a tiny grid
// (one or two values per parameter), with an untrained random CPI model stored as "tiny" and
// metrics that look like a trained model's (accuracy on unseen regions and programs, the
// training grid with ROB trained on 64 only, "alpha" trained on, "beta" held out).
// Building takes a second or two.

#include "KernelTrace.h"
#include "features/FeatureAssembler.h"
#include "features/FeatureLayout.h"
#include "ml/CpiModel.h"
#include "ml/FeatureNormalizer.h"
#include "ml/Mlp.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"
#include "pipeline/DatabaseBuilder.h"
#include "store/FeatureDatabase.h"
#include "store/StoredRegionSeries.h"
#include "trace/TraceWriter.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace concorde::testing {

/// The default grid shrunk to one or two values per parameter.
inline BoundsGrid tinyExplorerGrid() {
    BoundsGrid grid = defaultBoundsGrid();
    const auto set = [&](ParamId id, std::vector<double> values) {
        grid[index(id)] = std::move(values);
    };
    set(ParamId::Rob, {64, 128});
    set(ParamId::CommitWidth, {4});
    set(ParamId::LoadQueue, {16, 48});
    set(ParamId::StoreQueue, {32});
    set(ParamId::AluIssue, {2, 4});
    set(ParamId::FpIssue, {2});
    set(ParamId::LsIssue, {2});
    set(ParamId::LsPipes, {1, 2});
    set(ParamId::LoadPipes, {0, 1});
    set(ParamId::FetchWidth, {4});
    set(ParamId::DecodeWidth, {4});
    set(ParamId::RenameWidth, {4});
    set(ParamId::FetchBuffers, {8});
    set(ParamId::IcacheFills, {2, 8});
    set(ParamId::BranchPredictor, {0, 1});
    set(ParamId::BpMissPct, {2, 5});
    set(ParamId::L1dKb, {32, 64});
    set(ParamId::L1iKb, {64});
    set(ParamId::L2Kb, {1024});
    set(ParamId::PrefetchDegree, {0});
    return grid;
}

struct TinyRegionKernel {
    std::string name;
    std::map<std::string, std::string> params;
    std::uint64_t iterations;
};

inline void writeTinyProgram(const std::filesystem::path& path,
                             const std::vector<TinyRegionKernel>& regions) {
    TraceInfo info;
    info.commandLine = "explorer-test " + path.stem().string();
    info.source = "microbench";
    TraceWriter writer(path, info, TraceWriter::Options{4096, 3});
    std::uint64_t programStart = 0;
    for (const auto& r : regions) {
        const KernelTrace k = kernel(r.name, r.params, r.iterations);
        writer.beginRegion(programStart + k.warmup, k.warmup);
        for (const auto& record : k.records)
            writer.append(record);
        writer.endRegion();
        programStart += k.records.size();
    }
    writer.finish();
}

/// The metrics stored with the tiny model.
inline nlohmann::json tinyModelMetrics() {
    nlohmann::json grid = nlohmann::json::object();
    const BoundsGrid dbGrid = tinyExplorerGrid();
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        nlohmann::json values = nlohmann::json::array();
        for (double v : dbGrid[index(spec.id)]) {
            if (spec.id == ParamId::Rob && v != 64)
                continue; // trained on ROB 64 only: 128 lies outside the training range
            if (spec.kind == ParamKind::Choice)
                values.push_back(spec.formatValue(v));
            else
                values.push_back(v);
        }
        grid[spec.key] = values;
    }
    const auto report = [](double mean, double over, int samples) {
        return nlohmann::json{
            {"mean_rel_error", mean}, {"frac_over_10pct", over}, {"samples", samples}};
    };
    nlohmann::json test = report(0.0398, 0.08, 640);
    test["per_program"] = {{"alpha", report(0.0775, 0.3, 640)}};
    nlohmann::json heldOut = report(0.1346, 0.5, 100);
    heldOut["per_program"] = {{"beta", report(0.1346, 0.5, 100)}};
    return {{"accuracy", {{"test", test}, {"held_out", heldOut}}},
            {"dataset", {{"grid", grid}, {"train_programs", {"alpha"}}}}};
}

/// A random (untrained) CPI model over the standard layout, its normaliser fitted on features
/// assembled from the database's stored series, so predictions are finite and vary.
inline CpiModel tinyRandomModel(FeatureDatabase& db) {
    CpiModel model;
    model.name = "tiny";
    model.layout = FeatureLayout::standard();
    const FeatureAssembler assembler(model.layout);
    const BoundsGrid grid = db.buildSettings().grid;
    std::mt19937_64 rng(41);
    const auto regions = db.regions();
    Eigen::MatrixXf sample(static_cast<Eigen::Index>(model.layout.width()), 16);
    for (Eigen::Index s = 0; s < sample.cols(); ++s) {
        const auto& region = regions[static_cast<std::size_t>(s) % regions.size()];
        const StoredRegionSeries series = StoredRegionSeries::load(db, region.id);
        CoreConfig config;
        for (const auto& spec : ParameterSpace::all()) {
            const auto& values = grid[index(spec.id)];
            config.set(spec.id, values[rng() % values.size()]);
        }
        const auto features = assembler.assemble(config, series);
        sample.col(s) = Eigen::Map<const Eigen::VectorXf>(
            features.data(), static_cast<Eigen::Index>(features.size()));
    }
    model.normalizer = FeatureNormalizer::fit(sample);
    model.members = {Mlp({static_cast<int>(model.layout.width()), 8, 1}, 23)};
    model.metrics = tinyModelMetrics();
    return model;
}

/// Builds the database at `path` (traces are written next to it). With `withModel` false the
/// database has no model (to test that error).
inline void buildTinyExplorerDatabase(const std::filesystem::path& path, bool withModel = true) {
    const auto dir = path.parent_path();
    const auto alpha = dir / "alpha.ctrace";
    const auto beta = dir / "beta.ctrace";
    if (!std::filesystem::exists(alpha))
        writeTinyProgram(alpha, {{"stride-load", {{"ws_kb", "64"}}, 5},
                                 {"branch-random", {{"warmup", "64"}}, 800},
                                 {"rob-knee", {{"fillers", "32"}}, 60}});
    if (!std::filesystem::exists(beta))
        writeTinyProgram(beta,
                         {{"independent", {{"class", "fp-add"}}, 16}, {"chain-int-alu", {}, 70}});
    DatabaseBuilder::Options options;
    options.traces = {alpha, beta};
    options.grid = tinyExplorerGrid();
    options.windowSize = 100;
    options.jobs = 2;
    FeatureDatabase db = FeatureDatabase::openForWriting(path);
    const auto summary = DatabaseBuilder::build(db, options);
    if (summary.regionsBuilt != 5)
        throw std::runtime_error("tiny explorer database: expected 5 regions, got " +
                                 std::to_string(summary.regionsBuilt));
    if (withModel)
        db.writeModel(tinyRandomModel(db));
    db.close();
}

/// Adds reference-simulator-like labels to a tiny explorer database: for every region, one at
/// `onGrid` (source "preset:test") and one at `offGrid` (source "random"), with made-up CPIs
/// 0.6, 0.7, ... in region order. Returns (program, CPI) of the on-grid labels in that order.
inline std::vector<std::pair<std::string, double>>
addTinyLabels(const std::filesystem::path& path, const CoreConfig& onGrid,
              const CoreConfig& offGrid) {
    std::vector<std::pair<std::string, double>> written;
    FeatureDatabase db = FeatureDatabase::openForWriting(path);
    std::map<std::int64_t, std::string> names;
    for (const auto& p : db.programs())
        names[p.id] = p.name;
    double cpi = 0.6;
    for (const auto& region : db.regions()) {
        std::vector<LabelRow> labels;
        for (const CoreConfig* config : {&onGrid, &offGrid}) {
            LabelRow label;
            label.configJson = config->toJson().dump();
            label.configKey = config->toAssignments();
            label.source = config == &onGrid ? "preset:test" : "random";
            label.instructions = 1000;
            label.cpi = cpi;
            label.cycles = static_cast<std::uint64_t>(cpi * 1000);
            label.windowIpc = {0};
            labels.push_back(label);
        }
        db.writeLabels(region.id, labels);
        written.push_back({names.at(region.programId), cpi});
        cpi += 0.1;
    }
    db.close();
    return written;
}

} // namespace concorde::testing
