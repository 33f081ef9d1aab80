#include "features/FeatureLayout.h"

#include "bounds/BoundsCalculator.h"

#include "common/ConcordeError.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"
#include "trace/InstrClass.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

namespace concorde {
namespace {

constexpr std::string_view kFormatName = "concorde-feature-layout";

FeatureBlock distributions(std::string name, std::vector<std::string> columns,
                           std::vector<ParamId> params, float cap) {
    FeatureBlock block;
    block.name = std::move(name);
    block.kind = BlockKind::Distributions;
    block.columns = std::move(columns);
    block.params = std::move(params);
    block.cap = cap;
    return block;
}

/// A single-series distribution block whose series is named after the block.
FeatureBlock series(const std::string& name, std::vector<ParamId> params, float cap) {
    return distributions(name, {name}, std::move(params), cap);
}

/// A resource's per-window IPC bound: a series block with the reciprocal mean (region CPI).
FeatureBlock bound(const std::string& name, std::vector<ParamId> params) {
    FeatureBlock block = series(name, std::move(params), FeatureLayout::kThroughputCap);
    block.reciprocalMean = true;
    return block;
}

std::vector<ParamId> with(ParamId first, const std::vector<ParamId>& rest) {
    std::vector<ParamId> params{first};
    params.insert(params.end(), rest.begin(), rest.end());
    return params;
}

/// Capacities get a log2 scale (see the class comment); choices a one-hot; the rest linear.
ParamScale standardScale(ParamId id) {
    switch (id) {
    case ParamId::Rob:
    case ParamId::LoadQueue:
    case ParamId::StoreQueue:
    case ParamId::FetchBuffers:
    case ParamId::IcacheFills:
    case ParamId::L1dKb:
    case ParamId::L1iKb:
    case ParamId::L2Kb:
        return ParamScale::Log2;
    case ParamId::BranchPredictor:
        return ParamScale::OneHot;
    default:
        return ParamScale::Linear;
    }
}

FeatureBlock parameterBlock(const ParameterSpec& spec) {
    FeatureBlock block;
    block.name = "param." + spec.key;
    block.kind = BlockKind::Parameter;
    block.params = {spec.id};
    block.scale = standardScale(spec.id);
    block.columns =
        block.scale == ParamScale::OneHot ? spec.choices : std::vector<std::string>{spec.key};
    if (block.scale != ParamScale::OneHot) { // a one-hot has no range
        block.lo = spec.min;
        block.hi = spec.max;
    }
    return block;
}

std::string describe(std::size_t i, const FeatureBlock& block) {
    return "block " + std::to_string(i) + (block.name.empty() ? "" : " ('" + block.name + "')");
}

void validateBlock(std::size_t i, const FeatureBlock& block) {
    const std::string where = "feature layout: " + describe(i, block) + ": ";
    if (block.name.empty())
        throw badInput(where + "the name is empty");
    if (block.columns.empty())
        throw badInput(where + "has no columns");
    for (std::size_t c = 0; c < block.columns.size(); ++c) {
        if (block.columns[c].empty())
            throw badInput(where + "column " + std::to_string(c) + " has an empty name");
        for (std::size_t d = 0; d < c; ++d)
            if (block.columns[d] == block.columns[c])
                throw badInput(where + "column '" + block.columns[c] + "' appears twice");
    }
    for (std::size_t p = 0; p < block.params.size(); ++p) {
        if (index(block.params[p]) >= kParamCount)
            throw badInput(where + "parameter id " + std::to_string(index(block.params[p])) +
                           " does not exist");
        for (std::size_t q = 0; q < p; ++q)
            if (block.params[q] == block.params[p])
                throw badInput(where + "parameter '" + ParameterSpace::spec(block.params[p]).key +
                               "' appears twice");
    }
    switch (block.kind) {
    case BlockKind::Distributions:
        if (std::isnan(block.cap) || !(block.cap > 0))
            throw badInput(where + "a distributions block needs a positive cap");
        if (block.scale != ParamScale::None)
            throw badInput(where + "only parameter blocks have a scale");
        return;
    case BlockKind::Scalars:
        if (block.scale != ParamScale::None)
            throw badInput(where + "only parameter blocks have a scale");
        if (block.cap != 0)
            throw badInput(where + "only distributions blocks have a cap");
        if (block.reciprocalMean)
            throw badInput(where + "only distributions blocks have a reciprocal mean");
        return;
    case BlockKind::Parameter:
        break;
    }
    if (block.reciprocalMean)
        throw badInput(where + "only distributions blocks have a reciprocal mean");
    if (block.params.size() != 1)
        throw badInput(where + "a parameter block depends on exactly one parameter, not " +
                       std::to_string(block.params.size()));
    const auto& spec = ParameterSpace::spec(block.params[0]);
    if ((spec.kind == ParamKind::Choice) != (block.scale == ParamScale::OneHot))
        throw badInput(where + "parameter '" + spec.key + "' needs " +
                       (spec.kind == ParamKind::Choice ? "a one-hot" : "a linear or log2") +
                       " scale, not " + std::string(paramScaleName(block.scale)));
    if (block.scale == ParamScale::OneHot) {
        if (block.lo != 0 || block.hi != 0)
            throw badInput(where + "a one-hot block has no range (min and max must be 0)");
        if (block.columns.size() != spec.choices.size())
            throw badInput(where + "a one-hot over '" + spec.key + "' needs " +
                           std::to_string(spec.choices.size()) + " columns (" +
                           spec.describeRange() + ")");
        return;
    }
    if (block.columns.size() != 1)
        throw badInput(where + "a numeric parameter block has exactly one column");
    if (!std::isfinite(block.lo) || !std::isfinite(block.hi) || !(block.lo < block.hi))
        throw badInput(where + "the range [min, max] must be finite with min < max");
    if (block.scale == ParamScale::Log2 && !(block.lo > 0))
        throw badInput(where + "a log2 scale needs min > 0");
    if (block.cap != 0)
        throw badInput(where + "only distributions blocks have a cap");
}

// --- JSON helpers: every accessor names what is missing or mistyped. -------------------------

const nlohmann::json& member(const nlohmann::json& object, const char* key,
                             const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end())
        throw badInput(where + "'" + key + "' is missing");
    return *it;
}

std::size_t unsignedMember(const nlohmann::json& object, const char* key,
                           const std::string& where) {
    const auto& value = member(object, key, where);
    if (!value.is_number_integer() || value.get<long long>() < 0)
        throw badInput(where + "'" + key + "' must be a non-negative integer");
    return value.get<std::size_t>();
}

double numberMember(const nlohmann::json& object, const char* key, const std::string& where) {
    const auto& value = member(object, key, where);
    if (!value.is_number())
        throw badInput(where + "'" + key + "' must be a number");
    return value.get<double>();
}

std::string stringMember(const nlohmann::json& object, const char* key, const std::string& where) {
    const auto& value = member(object, key, where);
    if (!value.is_string())
        throw badInput(where + "'" + key + "' must be a string");
    return value.get<std::string>();
}

std::vector<std::string> stringList(const nlohmann::json& object, const char* key,
                                    const std::string& where) {
    const auto& value = member(object, key, where);
    if (!value.is_array())
        throw badInput(where + "'" + key + "' must be an array of strings");
    std::vector<std::string> list;
    for (const auto& item : value) {
        if (!item.is_string())
            throw badInput(where + "'" + key + "' must be an array of strings");
        list.push_back(item.get<std::string>());
    }
    return list;
}

BlockKind parseKind(const std::string& text, const std::string& where) {
    for (const auto kind : {BlockKind::Distributions, BlockKind::Scalars, BlockKind::Parameter})
        if (blockKindName(kind) == text)
            return kind;
    throw badInput(where + "unknown kind '" + text +
                   "' (expected distributions, scalars or parameter)");
}

ParamScale parseScale(const std::string& text, const std::string& where) {
    for (const auto scale : {ParamScale::Linear, ParamScale::Log2, ParamScale::OneHot})
        if (paramScaleName(scale) == text)
            return scale;
    throw badInput(where + "unknown scale '" + text + "' (expected linear, log2 or one-hot)");
}

FeatureBlock blockFromJson(const nlohmann::json& object, std::size_t i,
                           const std::string& context) {
    std::string where = context + ": block " + std::to_string(i) + ": ";
    if (!object.is_object())
        throw badInput(where + "must be a JSON object");
    FeatureBlock block;
    block.name = stringMember(object, "name", where);
    where = context + ": block " + std::to_string(i) + " ('" + block.name + "'): ";
    block.kind = parseKind(stringMember(object, "kind", where), where);
    for (const auto& key : stringList(object, "params", where)) {
        const auto id = ParameterSpace::find(key);
        if (!id)
            throw badInput(where + "unknown parameter '" + key +
                           "'; valid keys are: " + ParameterSpace::keyList());
        block.params.push_back(*id);
    }
    block.columns = stringList(object, "columns", where);
    block.offset = unsignedMember(object, "offset", where);
    block.width = unsignedMember(object, "width", where);
    std::set<std::string> allowed = {"name", "kind", "params", "columns", "offset", "width"};
    if (block.kind == BlockKind::Distributions) {
        const double cap = numberMember(object, "cap", where);
        block.cap = static_cast<float>(cap);
        if (static_cast<double>(block.cap) != cap)
            throw badInput(where + "'cap' is not representable as a float");
        allowed.insert("cap");
        if (object.contains("reciprocal_mean")) {
            if (!object["reciprocal_mean"].is_boolean())
                throw badInput(where + "'reciprocal_mean' must be true or false");
            block.reciprocalMean = object["reciprocal_mean"].get<bool>();
            allowed.insert("reciprocal_mean");
        }
    } else if (block.kind == BlockKind::Parameter) {
        block.scale = parseScale(stringMember(object, "scale", where), where);
        allowed.insert("scale");
        if (block.scale != ParamScale::OneHot) {
            block.lo = numberMember(object, "min", where);
            block.hi = numberMember(object, "max", where);
            allowed.insert({"min", "max"});
        }
    }
    for (const auto& [key, value] : object.items())
        if (!allowed.count(key))
            throw badInput(where + "unexpected field '" + key + "' for a " +
                           std::string(blockKindName(block.kind)) + " block");
    return block;
}

} // namespace

std::vector<int> FeatureLayout::auxRobSizes() {
    const auto& sizes = BoundsCalculator::auxiliaryRobSizes();
    return {sizes.begin(), sizes.end()};
}

std::vector<ParamId> FeatureLayout::memoryParams() {
    return {ParamId::L1dKb, ParamId::L1iKb, ParamId::L2Kb, ParamId::PrefetchDegree};
}

FeatureLayout FeatureLayout::standard(int percentiles) {
    const auto mem = memoryParams();
    std::vector<FeatureBlock> blocks = {
        bound("rob", with(ParamId::Rob, mem)),
        bound("lq", with(ParamId::LoadQueue, mem)),
        bound("sq", with(ParamId::StoreQueue, mem)),
        bound("alu_issue", {ParamId::AluIssue}),
        bound("fp_issue", {ParamId::FpIssue}),
        bound("ls_issue", {ParamId::LsIssue}),
        bound("pipes_lower", {ParamId::LsPipes, ParamId::LoadPipes}),
        bound("pipes_upper", {ParamId::LsPipes, ParamId::LoadPipes}),
        bound("icache_fills", with(ParamId::IcacheFills, mem)),
        bound("fetch_buffers", with(ParamId::FetchBuffers, mem)),
        bound("fetch_width", {ParamId::FetchWidth}),
    };
    blocks.push_back(distributions("aux.fences", {"fences"}, {}, kCountCap));
    std::vector<std::string> branchKinds;
    for (std::size_t k = 1; k < kBranchKindCount; ++k) // skip BranchKind::None
        branchKinds.emplace_back(branchKindName(static_cast<BranchKind>(k)));
    blocks.push_back(distributions("aux.branches", branchKinds, {}, kCountCap));
    blocks.push_back(distributions("aux.mispredict", {"mispredicts"},
                                   {ParamId::BranchPredictor, ParamId::BpMissPct}, kCountCap));
    FeatureBlock robSizes;
    robSizes.name = "aux.rob_sizes";
    robSizes.kind = BlockKind::Scalars;
    robSizes.params = mem;
    for (const int size : auxRobSizes())
        robSizes.columns.push_back("rob_" + std::to_string(size));
    blocks.push_back(robSizes);
    for (const char* latency : {"issue_wait", "execution", "commit_wait"})
        blocks.push_back(
            series(std::string("aux.latency_") + latency, with(ParamId::Rob, mem), kLatencyCap));
    for (const auto& spec : ParameterSpace::all())
        blocks.push_back(parameterBlock(spec));
    return FeatureLayout(percentiles, std::move(blocks));
}

FeatureLayout::FeatureLayout(int percentiles, std::vector<FeatureBlock> blocks)
    : percentiles_(percentiles), blocks_(std::move(blocks)) {
    if (percentiles < 1 || percentiles > DistributionEncoder::kMaxPercentiles)
        throw badInput("feature layout: percentile count must be in 1–" +
                       std::to_string(DistributionEncoder::kMaxPercentiles) + ", got " +
                       std::to_string(percentiles));
    if (blocks_.empty())
        throw badInput("feature layout: it has no blocks");
    std::set<std::string> names;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
        auto& block = blocks_[i];
        validateBlock(i, block);
        if (!names.insert(block.name).second)
            throw badInput("feature layout: " + describe(i, block) +
                           ": the name is used by an earlier block");
        block.offset = width_;
        block.width = block.expectedWidth(percentiles_);
        width_ += block.width;
    }
}

const FeatureBlock* FeatureLayout::find(std::string_view name) const {
    for (const auto& block : blocks_)
        if (block.name == name)
            return &block;
    return nullptr;
}

const FeatureBlock& FeatureLayout::block(std::string_view name) const {
    if (const auto* found = find(name))
        return *found;
    std::string list;
    for (const auto& block : blocks_)
        list += (list.empty() ? "" : ", ") + block.name;
    throw usageError("feature layout has no block '" + std::string(name) + "'; blocks: " + list);
}

std::size_t FeatureLayout::blockIndex(std::string_view name) const {
    return static_cast<std::size_t>(&block(name) - blocks_.data());
}

const std::vector<ParamId>& FeatureLayout::dependencies(std::string_view name) const {
    return block(name).params;
}

std::vector<const FeatureBlock*> FeatureLayout::blocksDependingOn(ParamId id) const {
    std::vector<const FeatureBlock*> result;
    for (const auto& block : blocks_)
        if (block.dependsOn(id))
            result.push_back(&block);
    return result;
}

BlockCombinations FeatureLayout::combinations(std::string_view name,
                                              const ParameterGrid& grid) const {
    return BlockCombinations(block(name), grid);
}

void FeatureLayout::encodeColumn(const FeatureBlock& block, std::span<const float> series,
                                 std::span<float> out) const {
    const auto enc = encoder(block);
    if (out.size() != block.columnWidth(percentiles_))
        throw usageError("a column of block '" + block.name + "' is " +
                         std::to_string(block.columnWidth(percentiles_)) + " floats wide, got " +
                         std::to_string(out.size()));
    enc.encodeInto(series, out.first(enc.width()));
    if (!block.reciprocalMean)
        return;
    // Samples clamped like the encoder's (cap) and away from 0 (a bound of 0 IPC would be an
    // infinite CPI; the models never produce one, the clamp keeps a bad input finite).
    double sum = 0;
    for (const float v : series)
        sum += 1.0 / std::clamp(static_cast<double>(v), 1e-3, static_cast<double>(block.cap));
    out[enc.width()] = series.empty() ? 0.0f : static_cast<float>(sum / double(series.size()));
}

DistributionEncoder FeatureLayout::encoder(const FeatureBlock& block) const {
    if (block.kind != BlockKind::Distributions)
        throw usageError("feature block '" + block.name + "' does not hold distributions");
    return DistributionEncoder(percentiles_, block.cap);
}

std::span<float> FeatureLayout::slice(std::span<float> features, std::string_view name) const {
    if (features.size() != width_)
        throw usageError("feature vector holds " + std::to_string(features.size()) +
                         " floats, the layout is " + std::to_string(width_) + " wide");
    const auto& b = block(name);
    return features.subspan(b.offset, b.width);
}

std::span<const float> FeatureLayout::slice(std::span<const float> features,
                                            std::string_view name) const {
    if (features.size() != width_)
        throw usageError("feature vector holds " + std::to_string(features.size()) +
                         " floats, the layout is " + std::to_string(width_) + " wide");
    const auto& b = block(name);
    return features.subspan(b.offset, b.width);
}

void FeatureLayout::encodeSeries(std::string_view name, std::string_view column,
                                 std::span<const float> values, std::span<float> features) const {
    const auto& b = block(name);
    const std::size_t w = b.columnWidth(percentiles_);
    encodeColumn(b, values, slice(features, name).subspan(b.columnIndex(column) * w, w));
}

void FeatureLayout::encodeParameters(const CoreConfig& config, std::span<float> features) const {
    if (features.size() != width_)
        throw usageError("feature vector holds " + std::to_string(features.size()) +
                         " floats, the layout is " + std::to_string(width_) + " wide");
    for (const auto& b : blocks_)
        if (b.kind == BlockKind::Parameter)
            b.encodeParameter(config, features.subspan(b.offset, b.width));
}

std::vector<float> FeatureLayout::normalisedParameters(const CoreConfig& config) const {
    std::vector<float> result;
    for (const auto& b : blocks_) {
        if (b.kind != BlockKind::Parameter)
            continue;
        const std::size_t at = result.size();
        result.resize(at + b.width);
        b.encodeParameter(config, std::span<float>(result).subspan(at, b.width));
    }
    return result;
}

nlohmann::json FeatureLayout::toJson() const {
    nlohmann::json blocks = nlohmann::json::array();
    for (const auto& b : blocks_) {
        nlohmann::json params = nlohmann::json::array();
        for (const ParamId id : b.params)
            params.push_back(ParameterSpace::spec(id).key);
        nlohmann::json object = {{"name", b.name},     {"kind", blockKindName(b.kind)},
                                 {"offset", b.offset}, {"width", b.width},
                                 {"params", params},   {"columns", b.columns}};
        if (b.kind == BlockKind::Distributions)
            object["cap"] = static_cast<double>(b.cap);
        if (b.reciprocalMean)
            object["reciprocal_mean"] = true;
        if (b.kind == BlockKind::Parameter) {
            object["scale"] = paramScaleName(b.scale);
            if (b.scale != ParamScale::OneHot) {
                object["min"] = b.lo;
                object["max"] = b.hi;
            }
        }
        blocks.push_back(std::move(object));
    }
    return {{"format", kFormatName},
            {"version", kFormatVersion},
            {"percentiles", percentiles_},
            {"width", width_},
            {"blocks", std::move(blocks)}};
}

FeatureLayout FeatureLayout::fromJson(const nlohmann::json& json, const std::string& context) {
    const std::string where = context + ": ";
    if (!json.is_object())
        throw badInput(where + "a feature layout must be a JSON object");
    if (stringMember(json, "format", where) != kFormatName)
        throw badInput(where + "'format' must be \"" + std::string(kFormatName) + "\"");
    const std::size_t version = unsignedMember(json, "version", where);
    if (version != static_cast<std::size_t>(kFormatVersion))
        throw badInput(where + "feature layout version " + std::to_string(version) +
                       " is not supported (this build reads version " +
                       std::to_string(kFormatVersion) + ")");
    const std::size_t percentiles = unsignedMember(json, "percentiles", where);
    if (percentiles < 1 ||
        percentiles > static_cast<std::size_t>(DistributionEncoder::kMaxPercentiles))
        throw badInput(where + "'percentiles' must be in 1–" +
                       std::to_string(DistributionEncoder::kMaxPercentiles));
    const auto& blocksJson = member(json, "blocks", where);
    if (!blocksJson.is_array())
        throw badInput(where + "'blocks' must be an array");
    std::vector<FeatureBlock> stored;
    for (std::size_t i = 0; i < blocksJson.size(); ++i)
        stored.push_back(blockFromJson(blocksJson[i], i, context));

    std::optional<FeatureLayout> layout;
    try {
        layout.emplace(static_cast<int>(percentiles), stored);
    } catch (const ConcordeError& e) {
        throw badInput(where + e.what());
    }
    // The file's offsets and widths are redundant; a mismatch means the file is inconsistent.
    for (std::size_t i = 0; i < stored.size(); ++i) {
        const auto& expected = layout->blocks_[i];
        if (stored[i].offset != expected.offset || stored[i].width != expected.width)
            throw badInput(where + "block " + std::to_string(i) + " ('" + expected.name +
                           "'): offset/width " + std::to_string(stored[i].offset) + "/" +
                           std::to_string(stored[i].width) + " in the file, but " +
                           std::to_string(expected.offset) + "/" + std::to_string(expected.width) +
                           " from its kind, columns and the " + "preceding blocks");
    }
    const std::size_t width = unsignedMember(json, "width", where);
    if (width != layout->width())
        throw badInput(where + "'width' is " + std::to_string(width) +
                       " but the blocks add up to " + std::to_string(layout->width()));
    return *layout;
}

} // namespace concorde
