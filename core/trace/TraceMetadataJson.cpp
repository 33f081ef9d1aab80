#include "trace/TraceMetadataJson.h"

#include "common/Base64.h"
#include "common/ConcordeError.h"

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
    TraceInfo info;
    info.isa = json.at("isa").get<std::string>();
    info.commandLine = json.at("command_line").get<std::string>();
    info.source = json.at("source").get<std::string>();
    info.properties = json.at("properties").get<std::map<std::string, std::string>>();
    info.recordCount = json.at("record_count").get<std::uint64_t>();
    for (const auto& r : json.at("regions")) {
        Region region;
        region.programStart = r.at("program_start").get<std::uint64_t>();
        region.warmup = r.at("warmup").get<std::uint64_t>();
        region.length = r.at("length").get<std::uint64_t>();
        region.firstRecord = r.at("first_record").get<std::uint64_t>();
        for (const auto& entry : r.at("bbv"))
            region.basicBlockVector.emplace_back(entry.at(0).get<std::uint64_t>(),
                                                 entry.at(1).get<std::uint64_t>());
        if (r.contains("functional_warmup")) {
            region.functionalWarmup = r.at("functional_warmup").get<std::uint64_t>();
            auto bytes = base64::decode(r.at("warm_state").get<std::string>());
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
