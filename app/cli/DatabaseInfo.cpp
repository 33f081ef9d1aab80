#include "DatabaseInfo.h"

#include "TextFormat.h"
#include "ml/CpiModel.h"
#include "params/ParameterSpace.h"
#include "store/FeatureDatabase.h"
#include "store/GridDescription.h"

#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace concorde::cli {
void DatabaseInfo::print(const std::string& path, bool json, std::ostream& out) {
    FeatureDatabase db = FeatureDatabase::openReadOnly(path);
    nlohmann::json doc;
    doc["file"] = path;
    doc["format"] = "concorde feature database";
    doc["schema_version"] = db.schemaVersion();
    doc["file_bytes"] = std::filesystem::file_size(path);
    const bool built = db.hasBuildSettings();
    if (built) {
        const BuildSettings settings = db.buildSettings();
        const SeriesCatalog& catalog = db.catalog();
        doc["window_size"] = settings.windowSize;
        doc["region_length"] = settings.regionLength;
        doc["created_by"] = settings.createdBy;
        doc["grid"] = GridDescription::toJson(settings.grid);
        doc["memory_configurations"] = catalog.memoryConfigs().size();
        doc["series_groups"] = catalog.groups().size();
        doc["series_per_region"] = catalog.seriesCount();
    }

    const std::map<std::int64_t, FeatureDatabase::RegionStorage> regionStorage = db.regionStorage();
    std::map<std::int64_t, std::string> programNames;
    std::map<std::int64_t, nlohmann::json> programStats;
    for (const ProgramRow& p : db.programs()) {
        programNames[p.id] = p.name;
        programStats[p.id] = {{"id", p.id},
                              {"name", p.name},
                              {"command_line", p.commandLine},
                              {"source_trace", p.sourceTrace},
                              {"instructions_traced", p.instructionsTraced},
                              {"regions", 0},
                              {"complete_regions", 0},
                              {"labels", 0}};
    }
    doc["regions"] = nlohmann::json::array();
    std::uint64_t completeRegions = 0;
    std::uint64_t seriesBytes = 0;
    std::uint64_t recordBytes = 0;
    for (const RegionRow& r : db.regions()) {
        const auto found = regionStorage.find(r.id);
        const FeatureDatabase::RegionStorage stored =
            found == regionStorage.end() ? FeatureDatabase::RegionStorage{} : found->second;
        const std::uint64_t labels = stored.labels;
        nlohmann::json entry = {{"id", r.id},
                                {"program", programNames[r.programId]},
                                {"region_index", r.regionIndex},
                                {"program_start", r.programStart},
                                {"warmup", r.warmup},
                                {"length", r.length},
                                {"phase", r.phase ? nlohmann::json(*r.phase) : nlohmann::json()},
                                {"complete", r.complete},
                                {"series_groups", stored.seriesGroups},
                                {"series_bytes", stored.seriesBytes},
                                {"record_bytes", stored.recordBytes},
                                {"labels", labels}};
        doc["regions"].push_back(entry);
        auto& stats = programStats[r.programId];
        stats["regions"] = stats["regions"].get<int>() + 1;
        stats["complete_regions"] = stats["complete_regions"].get<int>() + (r.complete ? 1 : 0);
        stats["labels"] = stats["labels"].get<std::uint64_t>() + labels;
        completeRegions += r.complete;
        if (r.complete) {
            seriesBytes += stored.seriesBytes;
            recordBytes += stored.recordBytes;
        }
    }
    doc["programs"] = nlohmann::json::array();
    for (auto& [id, stats] : programStats)
        doc["programs"].push_back(stats);
    nlohmann::json bySource = nlohmann::json::object();
    std::uint64_t labelTotal = 0;
    for (const auto& [source, count] : db.labelCountsBySource()) {
        bySource[source] = count;
        labelTotal += count;
    }
    doc["labels"] = {{"total", labelTotal}, {"by_source", bySource}};
    doc["models"] = nlohmann::json::array();
    for (const ModelSummary& m : db.models()) {
        nlohmann::json model = {{"id", m.id},
                                {"name", m.name},
                                {"created", m.created},
                                {"weight_bytes", m.weightBytes}};
        // The measured accuracy: headline numbers only (per program/parameter via evaluate).
        if (const auto full = db.readModel(m.name)) {
            model["hidden"] = full->metrics["training"].value("hidden", nlohmann::json::array());
            for (const auto& [split, report] : full->metrics["accuracy"].items())
                model["accuracy"][split] = {
                    {"samples", report.value("samples", 0)},
                    {"mean_rel_error", report.value("mean_rel_error", 0.0)},
                    {"frac_over_10pct", report.value("frac_over_10pct", 0.0)}};
        }
        doc["models"].push_back(std::move(model));
    }
    bool exact = false;
    const auto storage = db.storageByTable(&exact);
    doc["storage"] = {{"source", exact ? "dbstat" : "page_count"},
                      {"bytes", nlohmann::json::object()}};
    for (const auto& [name, bytes] : storage)
        doc["storage"]["bytes"][name] = bytes;

    if (json) {
        out << doc.dump(2) << "\n";
        return;
    }
    out << "file:            " << path << "\n"
        << "format:          Concorde feature database, schema version " << db.schemaVersion()
        << "\n";
    if (!built) {
        out << "build settings:  none yet (run concorde build-db)\n";
    } else {
        out << "created by:      " << doc["created_by"].get<std::string>() << "\n"
            << "window size:     " << doc["window_size"] << " instructions\n"
            << "region length:   " << doc["region_length"] << " instructions (first region)\n"
            << "grid:            " << doc["memory_configurations"] << " memory configurations, "
            << doc["series_groups"] << " series groups, " << doc["series_per_region"]
            << " series per region\n";
        for (const auto& spec : ParameterSpace::all()) {
            std::string values;
            for (const auto& v : doc["grid"][spec.key])
                values +=
                    (values.empty() ? "" : " ") + (v.is_string() ? v.get<std::string>() : v.dump());
            out << "  " << std::left << std::setw(15) << spec.key << std::right << values << "\n";
        }
    }
    out << "programs:        " << doc["programs"].size() << "\n";
    for (const auto& p : doc["programs"])
        out << "  " << std::setw(3) << p["id"].get<std::int64_t>() << "  " << std::left
            << std::setw(22) << p["name"].get<std::string>() << std::right << std::setw(4)
            << p["complete_regions"].get<int>() << "/" << std::left << std::setw(4)
            << p["regions"].get<int>() << std::right << " regions complete, "
            << p["labels"].get<std::uint64_t>() << " labels   "
            << p["command_line"].get<std::string>() << "\n";
    const auto& regions = doc["regions"];
    out << "regions:         " << regions.size() << " (" << completeRegions << " complete)\n";
    if (completeRegions)
        out << "stored:          series " << TextFormat::kilobytes(seriesBytes / completeRegions)
            << " per region, records " << TextFormat::kilobytes(recordBytes / completeRegions)
            << " per region (blob bytes)\n";
    constexpr std::size_t kShown = 100;
    if (!regions.empty())
        out << "    id  program                   #  program start   warm-up    length  phase  "
               "complete    series   records  labels\n";
    for (std::size_t i = 0; i < regions.size() && i < kShown; ++i) {
        const auto& r = regions[i];
        out << "  " << std::setw(4) << r["id"].get<std::int64_t>() << "  " << std::left
            << std::setw(22) << r["program"].get<std::string>() << std::right << std::setw(4)
            << r["region_index"].get<int>() << std::setw(15)
            << r["program_start"].get<std::uint64_t>() << std::setw(10)
            << r["warmup"].get<std::uint64_t>() << std::setw(10) << r["length"].get<std::uint64_t>()
            << std::setw(7) << (r["phase"].is_null() ? "-" : r["phase"].dump()) << std::setw(10)
            << (r["complete"].get<bool>() ? "yes" : "no") << std::setw(10)
            << TextFormat::kilobytes(r["series_bytes"].get<std::uint64_t>()) << std::setw(10)
            << TextFormat::kilobytes(r["record_bytes"].get<std::uint64_t>()) << std::setw(8)
            << r["labels"].get<std::uint64_t>() << "\n";
    }
    if (regions.size() > kShown)
        out << "  ... " << regions.size() - kShown << " more regions (see --json)\n";
    out << "labels:          " << labelTotal;
    for (const auto& [source, count] : bySource.items())
        out << (source == bySource.begin().key() ? " (" : ", ") << source << " " << count;
    out << (bySource.empty() ? "" : ")") << "\n";
    out << "models:          " << (doc["models"].empty() ? "none" : "") << "\n";
    for (const auto& m : doc["models"])
        out << "  " << m["name"].get<std::string>() << "  created "
            << m["created"].get<std::string>() << ", "
            << TextFormat::kilobytes(m["weight_bytes"].get<std::uint64_t>()) << " of weights\n";
    for (const auto& m : doc["models"])
        if (m.contains("accuracy"))
            for (const auto& [split, a] : m["accuracy"].items()) {
                char line[200];
                std::snprintf(line, sizeof line,
                              "    %-9s %s: mean error %.2f %%, %.1f %% of %d samples over 10 %%\n",
                              m["name"].get<std::string>().c_str(), split.c_str(),
                              100 * a["mean_rel_error"].get<double>(),
                              100 * a["frac_over_10pct"].get<double>(), a["samples"].get<int>());
                out << line;
            }
    out << "storage:         " << TextFormat::kilobytes(doc["file_bytes"].get<std::uint64_t>())
        << " file" << (exact ? ", by table and index (dbstat):" : " (dbstat not available)")
        << "\n";
    for (const auto& [name, bytes] : storage)
        out << "  " << std::left << std::setw(40) << name << std::right << std::setw(12)
            << TextFormat::kilobytes(bytes) << "\n";
}

} // namespace concorde::cli
