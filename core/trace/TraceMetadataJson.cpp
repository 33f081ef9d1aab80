#include "trace/TraceMetadataJson.h"

#include "common/Base64.h"
#include "common/ConcordeError.h"
#include "common/JsonFields.h"

#include <nlohmann/json.hpp>

namespace concorde {

nlohmann::json traceInfoToJson(const TraceInfo& info) {
    nlohmann::json regions = nlohmann::json::array();
    for (const auto& region : info.regions) {
        nlohmann::json bbv = nlohmann::json::array();
        for (const auto& [pc, count] : region.basicBlockVector)
            bbv.push_back({pc, count});
        nlohmann::json entry = {{"program_start", region.programStart},
                                {"warmup", region.warmup},
                                {"length", region.length},
                                {"first_record", region.firstRecord},
                                {"bbv", std::move(bbv)}};
        if (region.functionalWarmup > 0) {
            entry["functional_warmup"] = region.functionalWarmup;
            entry["warm_state"] = base64::encode(region.warmState);
        }
        regions.push_back(std::move(entry));
    }
    return {{"isa", info.isa},
            {"command_line", info.commandLine},
            {"source", info.source},
            {"properties", info.properties},
            {"record_count", info.recordCount},
            {"regions", std::move(regions)}};
}

TraceInfo traceInfoFromJson(const nlohmann::json& json) {
    const JsonFields fields(json, "trace metadata");
    TraceInfo info;
    info.isa = fields.string("isa");
    info.commandLine = fields.string("command_line");
    info.source = fields.string("source");
    const JsonFields properties = fields.object("properties");
    for (const auto& [key, value] : json.at("properties").items())
        info.properties[key] = properties.string(key);
    info.recordCount = fields.count("record_count");
    const nlohmann::json& regions = fields.array("regions");
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const JsonFields r(regions[i], fields.where("regions", i));
        Region region;
        region.programStart = r.count("program_start");
        region.warmup = r.count("warmup");
        region.length = r.count("length");
        region.firstRecord = r.count("first_record");
        const nlohmann::json& bbv = r.array("bbv");
        for (std::size_t b = 0; b < bbv.size(); ++b) {
            const std::string what = r.where("bbv", b);
            const nlohmann::json& entry = JsonFields::requireArray(bbv[b], what, 2);
            region.basicBlockVector.emplace_back(JsonFields::requireCount(entry[0], what),
                                                 JsonFields::requireCount(entry[1], what));
        }
        if (r.has("functional_warmup")) {
            region.functionalWarmup = r.count("functional_warmup");
            auto bytes = base64::decode(r.string("warm_state"));
            if (!bytes)
                throw badInput("region " + std::to_string(info.regions.size()) +
                               ": the warm state is not valid base64");
            region.warmState = std::move(*bytes);
        }
        info.regions.push_back(std::move(region));
    }
    return info;
}

} // namespace concorde
