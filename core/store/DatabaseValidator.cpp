#include "store/DatabaseValidator.h"

#include "analysis/WarmState.h"
#include "bounds/WindowBounds.h"
#include "common/ConcordeError.h"
#include "params/CoreConfig.h"
#include "store/BasicBlockVectorCodec.h"
#include "store/DatabaseSchema.h"
#include "store/FeatureDatabase.h"
#include "store/SchemaMigrations.h"
#include "store/SeriesGroupCodec.h"
#include "store/SqliteConnection.h"
#include "store/SqliteStatement.h"

#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace concorde {
namespace {

/// Runs `check`, turning a ConcordeError into a problem. Returns whether it succeeded.
bool attempt(DatabaseValidator::Report& report, const std::function<void()>& check) {
    try {
        check();
        return true;
    } catch (const ConcordeError& e) {
        report.problems.push_back(e.what());
    } catch (const std::exception& e) {
        report.problems.push_back(std::string("unexpected error: ") + e.what());
    }
    return false;
}

void checkStructure(DatabaseValidator::Report& report, const std::filesystem::path& path,
                    bool& usable) {
    SqliteConnection connection(path, SqliteConnection::Mode::ReadOnly);
    usable = false;
    const bool sqliteOk = attempt(report, [&] {
        auto check = connection.prepare("PRAGMA quick_check", "SQLite integrity check");
        while (check.step())
            if (check.text(0) != "ok")
                report.problems.push_back("SQLite integrity check: " + check.text(0));
    });
    if (!sqliteOk)
        return;
    int version = 0;
    if (!attempt(report, [&] { version = SchemaMigrations::versionOf(connection); }))
        return;
    if (const auto problem = SchemaMigrations::versionProblem(version, path.string());
        !problem.empty()) {
        report.problems.push_back(problem);
        return;
    }
    const auto schema = DatabaseSchema::problems(connection);
    report.problems.insert(report.problems.end(), schema.begin(), schema.end());
    usable = schema.empty();
}

} // namespace

DatabaseValidator::Report DatabaseValidator::validate(const std::filesystem::path& path) {
    Report report;
    FeatureDatabase::requireSqliteFile(path); // the precise "missing/unreadable/..." error
    {
        // Another application's SQLite file (or an empty one) is not a damaged feature database:
        // report it like a file of the wrong kind. A file too damaged to list its tables is left
        // to the checks below.
        SqliteConnection probe(path, SqliteConnection::Mode::ReadOnly);
        bool hasMeta = true;
        try {
            hasMeta = probe.hasTable("meta");
        } catch (const ConcordeError&) {
        }
        if (!hasMeta && SchemaMigrations::versionOf(probe) == 0)
            throw badInput(path.string() +
                           " is an empty SQLite database, not a Concorde feature database");
    }
    bool usable = false;
    if (!attempt(report, [&] { checkStructure(report, path, usable); }) || !usable)
        return report;

    FeatureDatabase db = FeatureDatabase::openReadOnly(path);
    SqliteConnection& c = db.connection();
    const std::string name = path.string();
    BuildSettings settings;
    if (!attempt(report, [&] { settings = db.buildSettings(); }))
        return report;
    const SeriesCatalog& catalog = db.catalog();

    attempt(report, [&] {
        auto q = c.prepare("SELECT id, l1d_kb, l1i_kb, l2_kb, pf_degree FROM memory_configs "
                           "ORDER BY id",
                           "reading memory_configs");
        std::size_t n = 0;
        while (q.step()) {
            const MemoryConfig stored{static_cast<int>(q.int64(1)), static_cast<int>(q.int64(2)),
                                      static_cast<int>(q.int64(3)), static_cast<int>(q.int64(4))};
            if (n >= catalog.memoryConfigs().size() || q.int64(0) != std::int64_t(n + 1) ||
                !(stored == catalog.memoryConfigs()[n]))
                report.problems.push_back("table memory_configs: row id " +
                                          std::to_string(q.int64(0)) + " (" + stored.toString() +
                                          ") does not match the grid");
            ++n;
        }
        if (n != catalog.memoryConfigs().size())
            report.problems.push_back(
                "table memory_configs has " + std::to_string(n) + " rows, the grid has " +
                std::to_string(catalog.memoryConfigs().size()) + " memory configurations");
    });
    attempt(report, [&] {
        auto q = c.prepare("SELECT name, position, memory_config_id, settings FROM series_keys "
                           "ORDER BY name, position",
                           "reading series_keys");
        std::map<std::string, std::vector<std::pair<std::int64_t, std::string>>> stored;
        while (q.step())
            stored[q.text(0)].emplace_back(q.int64(2), q.text(3));
        for (const auto& group : catalog.groups()) {
            const auto it = stored.find(group.name);
            bool same = it != stored.end() && it->second.size() == group.series.size();
            for (std::size_t i = 0; same && i < group.series.size(); ++i)
                same =
                    it->second[i].first == group.series[i].memoryConfigId &&
                    it->second[i].second == SeriesCatalog::settingsText(group.series[i].settings);
            if (!same)
                report.problems.push_back("table series_keys: the keys of series " + group.name +
                                          " do not match the grid");
            if (it != stored.end())
                stored.erase(it);
        }
        for (const auto& [extra, rows] : stored)
            report.problems.push_back("table series_keys: series " + extra + " is not in the grid");
    });

    std::vector<std::pair<std::int64_t, bool>> regionIds;
    attempt(report, [&] {
        auto q = c.prepare("SELECT r.id, r.complete, p.id FROM regions AS r LEFT JOIN programs "
                           "AS p ON p.id = r.program_id ORDER BY r.id",
                           "listing regions");
        while (q.step()) {
            regionIds.emplace_back(q.int64(0), q.int64(1) != 0);
            if (q.isNull(2))
                report.problems.push_back("table regions: row id " + std::to_string(q.int64(0)) +
                                          " refers to a missing program");
        }
    });
    std::set<std::int64_t> skipped; // complete regions predict and the explorer leave out
    for (const auto& [id, complete] : regionIds) {
        ++report.regions;
        std::optional<RegionRow> region;
        const std::size_t before = report.problems.size();
        const bool rowRead = attempt(report, [&, id = id] { region = db.region(id); });
        if (!rowRead) {
            // The row's own message names only its id: name the program and region too.
            std::string& problem = report.problems.back();
            const std::string prefix = name + ": regions row " + std::to_string(id);
            if (problem.rfind(prefix, 0) == 0)
                problem = name + ": " + db.describeRegion(id) + ", regions row" +
                          problem.substr(prefix.size());
            if (complete)
                skipped.insert(id);
        }
        if (!rowRead || !region)
            continue;
        std::map<std::string, bool> present;
        attempt(report, [&, id = id] {
            for (const auto& blob : db.seriesGroupBlobs(id))
                present[blob.name] = false;
        });
        if (!complete) {
            if (!present.empty())
                report.problems.push_back(name + ": " + db.describeRegion(id) +
                                          " is not complete but has series rows");
            continue;
        }
        ++report.completeRegions;
        for (const auto& group : catalog.groups()) {
            if (!present.count(group.name)) {
                report.problems.push_back(name + ": " + db.describeRegion(id) + ", series group " +
                                          group.name + ": missing from table series");
                continue;
            }
            present[group.name] = true;
            if (attempt(report, [&, id = id] { db.readSeriesGroup(id, group.name); })) {
                ++report.seriesGroups;
                report.series += group.series.size();
            }
        }
        if (report.problems.size() != before)
            skipped.insert(id); // a series group is missing or does not decode
        for (const auto& [group, expected] : present)
            if (!expected)
                report.problems.push_back(name + ": " + db.describeRegion(id) +
                                          " has series group " + group +
                                          ", which the grid does not define");
        attempt(report, [&, id = id] { db.regionRecords(id); });
        attempt(report, [&, id = id] {
            WarmState::fromBytes(db.regionWarmState(id),
                                 name + ": " + db.describeRegion(id) + ", warm state");
        });
    }

    attempt(report, [&] {
        // What the damage costs: per program, the regions left for predictions.
        auto q = c.prepare("SELECT r.id, p.name, r.region_index FROM regions AS r JOIN programs "
                           "AS p ON p.id = r.program_id WHERE r.complete != 0 ORDER BY p.id, "
                           "r.region_index",
                           "counting damaged regions");
        std::vector<std::string> order;
        std::map<std::string, std::pair<std::size_t, std::vector<std::string>>> programs;
        while (q.step()) {
            const std::string program = q.text(1);
            if (!programs.count(program))
                order.push_back(program);
            auto& [complete, damaged] = programs[program];
            ++complete;
            if (skipped.count(q.int64(0)))
                damaged.push_back(std::to_string(q.int64(2)));
        }
        for (const std::string& program : order) {
            const auto& [complete, damaged] = programs[program];
            if (damaged.empty())
                continue;
            std::string indices;
            for (const std::string& index : damaged)
                indices += (indices.empty() ? "" : ", ") + index;
            report.damagedPrograms.push_back(
                damaged.size() == complete
                    ? program + ": every region (" + indices +
                          ") is damaged; predict and the explorer have nothing of it"
                    : program + ": region" + (damaged.size() == 1 ? " " : "s ") + indices +
                          " damaged; predict and the explorer skip " +
                          (damaged.size() == 1 ? "it" : "them") + " and use the other " +
                          std::to_string(complete - damaged.size()) + " of " +
                          std::to_string(complete));
        }
    });
    report.damagedRegions = skipped.size();

    std::vector<LabelRow> labels;
    attempt(report, [&] { labels = db.labels(); });
    std::map<std::int64_t, bool> completeById(regionIds.begin(), regionIds.end());
    for (const LabelRow& label : labels) {
        ++report.labels;
        const std::string what = name + ": labels row id " + std::to_string(label.id) + " (" +
                                 db.describeRegion(label.regionId) + ")";
        if (!completeById[label.regionId])
            report.problems.push_back(what + ": the region is missing or not complete");
        attempt(report, [&] {
            nlohmann::json config;
            try {
                config = nlohmann::json::parse(label.configJson);
            } catch (const nlohmann::json::exception& e) {
                throw badInput(what + ": config_json is not valid JSON");
            }
            CoreConfig parsed;
            try {
                parsed = CoreConfig::fromJson(config, true, what + " config_json");
            } catch (const ConcordeError& e) {
                throw badInput(e.what());
            }
            if (parsed.toAssignments() != label.configKey)
                throw badInput(what + ": config_key does not match config_json");
            if (!std::isfinite(label.cpi) || !(label.cpi > 0))
                throw badInput(what + ": cpi " + std::to_string(label.cpi) +
                               " is not a positive number");
            if (label.instructions == 0 ||
                std::fabs(label.cpi - double(label.cycles) / double(label.instructions)) >
                    1e-9 * label.cpi)
                throw badInput(what + ": cpi " + std::to_string(label.cpi) +
                               " is not cycles / instructions");
            const auto windows = WindowBounds::windowCount(label.instructions, settings.windowSize);
            SeriesGroupCodec::decode(label.windowIpc, what + ", window_ipc", 1,
                                     static_cast<std::int64_t>(windows));
        });
    }

    attempt(report, [&] {
        auto q = c.prepare("SELECT id, layout_json, normalisation_json, metrics_json FROM models",
                           "reading models");
        while (q.step())
            for (int column = 1; column <= 3; ++column)
                if (!nlohmann::json::accept(q.text(column)))
                    report.problems.push_back(name + ": models row id " +
                                              std::to_string(q.int64(0)) + ": " +
                                              q.columnName(column) + " is not valid JSON");
    });
    return report;
}

} // namespace concorde
