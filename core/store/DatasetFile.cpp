#include "store/DatasetFile.h"

#include "common/ConcordeError.h"
#include "common/JsonFields.h"
#include "features/FeatureVectorCodec.h"
#include "store/FeatureDatabase.h"
#include "store/SqliteConnection.h"
#include "store/SqliteStatement.h"
#include "store/SqliteTransaction.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace concorde {
namespace {

constexpr const char* kFormat = "concorde-dataset";

std::optional<std::string> metaValue(SqliteConnection& connection, const std::string& key) {
    auto query = connection.prepare("SELECT value FROM meta WHERE key = ?1", "reading meta");
    query.bind(1, key);
    if (!query.step())
        return std::nullopt;
    return query.text(0);
}

std::string holdOutText(const std::vector<std::string>& holdOut) {
    return nlohmann::json(holdOut).dump();
}

} // namespace

DatasetFile::DatasetFile(std::filesystem::path path, std::unique_ptr<SqliteConnection> connection,
                         DatasetSettings settings)
    : path_(std::move(path)), connection_(std::move(connection)), settings_(std::move(settings)) {}
DatasetFile::DatasetFile(DatasetFile&&) noexcept = default;
DatasetFile& DatasetFile::operator=(DatasetFile&&) noexcept = default;
DatasetFile::~DatasetFile() = default;

bool DatasetFile::isDataset(const std::filesystem::path& path) {
    if (!FeatureDatabase::isSqliteFile(path))
        return false;
    try {
        SqliteConnection connection(path, SqliteConnection::Mode::ReadOnly);
        return connection.hasTable("meta") && connection.hasTable("samples") &&
               metaValue(connection, "format") == std::string(kFormat);
    } catch (const ConcordeError&) {
        return false;
    }
}

bool DatasetSettings::loadQueueThroughCommit() const {
    const auto parsed = nlohmann::json::parse(sources, nullptr, false);
    return parsed.is_object() && parsed.value("load_queue_model", "") == "through_commit";
}

DatasetSettings DatasetFile::readSettings(SqliteConnection& connection,
                                          const std::filesystem::path& path) {
    const std::string name = path.string();
    if (!connection.hasTable("meta") || !connection.hasTable("samples") ||
        metaValue(connection, "format") != std::string(kFormat))
        throw badInput(name + " is an SQLite file but not a Concorde dataset (no meta.format = " +
                       kFormat + ")");
    const auto version = metaValue(connection, "version");
    if (version != std::to_string(kVersion))
        throw badInput(name + ": dataset version " + version.value_or("(none)") +
                       " is not supported (this build reads version " + std::to_string(kVersion) +
                       ")");
    DatasetSettings settings;
    try {
        settings.seed = std::stoull(metaValue(connection, "seed").value_or(""));
    } catch (const std::exception& e) {
        throw badInput(name + ": malformed dataset meta.seed: " + e.what());
    }
    const std::string holdOutWhat = name + ": meta.hold_out";
    const nlohmann::json holdOut = JsonFields::requireArray(
        JsonFields::parse(metaValue(connection, "hold_out").value_or("[]"), holdOutWhat),
        holdOutWhat);
    for (std::size_t i = 0; i < holdOut.size(); ++i)
        settings.holdOut.push_back(
            JsonFields::requireString(holdOut[i], holdOutWhat + "[" + std::to_string(i) + "]"));
    settings.sources = metaValue(connection, "sources").value_or("");
    settings.gridText = metaValue(connection, "grid").value_or("");
    settings.layoutJson = metaValue(connection, "layout").value_or("");
    return settings;
}

DatasetFile DatasetFile::openReadOnly(const std::filesystem::path& path) {
    if (!std::filesystem::exists(path))
        throw badInput("no such dataset file: " + path.string());
    if (!FeatureDatabase::isSqliteFile(path))
        throw badInput(path.string() + " is not a Concorde dataset (not an SQLite file)");
    auto connection = std::make_unique<SqliteConnection>(path, SqliteConnection::Mode::ReadOnly);
    DatasetSettings settings = readSettings(*connection, path);
    DatasetFile file(path, std::move(connection), std::move(settings));
    file.layout(); // validates the stored layout now rather than at first use
    return file;
}

DatasetFile DatasetFile::openForWriting(const std::filesystem::path& path,
                                        const DatasetSettings& wanted) {
    const bool existed = std::filesystem::exists(path) && std::filesystem::file_size(path) > 0;
    if (existed && !FeatureDatabase::isSqliteFile(path))
        throw badInput(path.string() + " exists and is not a Concorde dataset; refusing to "
                                       "overwrite it");
    auto connection = std::make_unique<SqliteConnection>(path, SqliteConnection::Mode::ReadWrite);
    if (existed) {
        const DatasetSettings found = readSettings(*connection, path);
        const auto differs = [&](const std::string& what, const std::string& had,
                                 const std::string& want) {
            if (had != want)
                throw badInput(path.string() + " was drawn with a different " + what + " (" + had +
                               ", now " + want +
                               "); use a new output file or the original settings");
        };
        differs("seed", std::to_string(found.seed), std::to_string(wanted.seed));
        differs("hold-out list", holdOutText(found.holdOut), holdOutText(wanted.holdOut));
        differs("set of inputs", found.sources, wanted.sources);
        differs("grid", found.gridText, wanted.gridText);
        if (found.layoutJson != wanted.layoutJson)
            throw badInput(path.string() + " was drawn with a different feature layout");
    } else {
        connection->exec("PRAGMA journal_mode=WAL", "switching to WAL");
        SqliteTransaction transaction(*connection);
        connection->exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                         "CREATE TABLE samples (id INTEGER PRIMARY KEY, program TEXT NOT NULL, "
                         "region_index INTEGER NOT NULL, split TEXT NOT NULL, config_json TEXT "
                         "NOT NULL, cpi REAL NOT NULL, min_bound_cpi REAL NOT NULL, "
                         "instructions INTEGER NOT NULL, features BLOB NOT NULL)",
                         "creating the dataset tables");
        auto insert = connection->prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)",
                                          "writing dataset meta");
        const std::pair<const char*, std::string> rows[] = {
            {"format", kFormat},
            {"version", std::to_string(kVersion)},
            {"seed", std::to_string(wanted.seed)},
            {"hold_out", holdOutText(wanted.holdOut)},
            {"sources", wanted.sources},
            {"grid", wanted.gridText},
            {"layout", wanted.layoutJson},
        };
        for (const auto& [key, value] : rows)
            insert.bind(1, key).bind(2, value).run();
        transaction.commit();
    }
    return DatasetFile(path, std::move(connection), wanted);
}

std::map<std::int64_t, DatasetFile::StoredLabel>
DatasetFile::storedLabels(const std::filesystem::path& path) {
    if (!FeatureDatabase::isSqliteFile(path))
        throw badInput(path.string() + " is not a Concorde dataset (missing or not SQLite)");
    SqliteConnection connection(path, SqliteConnection::Mode::ReadOnly);
    readSettings(connection, path); // format and version
    std::map<std::int64_t, StoredLabel> labels;
    auto query = connection.prepare(
        "SELECT id, program, region_index, config_json, cpi, instructions FROM samples",
        "reading labels");
    while (query.step()) {
        StoredLabel label;
        const std::string what = path.string() + ": sample " + std::to_string(query.int64(0));
        label.program = query.text(1);
        label.regionIndex = static_cast<std::uint32_t>(query.int64(2));
        try {
            label.config = CoreConfig::fromJson(nlohmann::json::parse(query.text(3)), true, what);
        } catch (const nlohmann::json::exception& e) {
            throw badInput(what + ": malformed configuration: " + e.what());
        }
        label.cpi = query.real(4);
        label.instructions = static_cast<std::uint64_t>(query.int64(5));
        if (label.cpi > 0)
            labels.emplace(query.int64(0), std::move(label));
    }
    return labels;
}

FeatureLayout DatasetFile::layout() const {
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(settings_.layoutJson);
    } catch (const nlohmann::json::exception& e) {
        throw badInput(path_.string() + ": malformed feature layout in meta: " + e.what());
    }
    return FeatureLayout::fromJson(json, path_.string());
}

std::set<std::int64_t> DatasetFile::sampleIds() {
    std::set<std::int64_t> ids;
    auto query = connection_->prepare("SELECT id FROM samples", "listing samples");
    while (query.step())
        ids.insert(query.int64(0));
    return ids;
}

std::size_t DatasetFile::sampleCount() {
    auto query = connection_->prepare("SELECT count(*) FROM samples", "counting samples");
    query.step();
    return static_cast<std::size_t>(query.int64(0));
}

void DatasetFile::write(const std::vector<DatasetSample>& samples) {
    SqliteTransaction transaction(*connection_);
    auto insert = connection_->prepare(
        "INSERT OR REPLACE INTO samples (id, program, region_index, split, config_json, cpi, "
        "min_bound_cpi, instructions, features) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        "writing samples");
    for (const auto& s : samples) {
        const auto blob = FeatureVectorCodec::encode(s.features);
        insert.bind(1, s.id)
            .bind(2, s.program)
            .bind(3, static_cast<std::int64_t>(s.regionIndex))
            .bind(4, s.split)
            .bind(5, s.config.toJson().dump())
            .bind(6, s.cpi)
            .bind(7, s.minBoundCpi)
            .bind(8, static_cast<std::int64_t>(s.instructions))
            .bindBlob(9, blob)
            .run();
    }
    transaction.commit();
}

namespace {

constexpr const char* kSampleColumns =
    "SELECT id, program, region_index, split, config_json, cpi, min_bound_cpi, instructions, "
    "features FROM samples";

} // namespace

DatasetSample DatasetFile::decodeSample(SqliteStatement& query, std::size_t width) const {
    DatasetSample s;
    s.id = query.int64(0);
    const std::string what = path_.string() + ": sample " + std::to_string(s.id);
    s.program = query.text(1);
    s.regionIndex = static_cast<std::uint32_t>(query.int64(2));
    s.split = query.text(3);
    s.config = CoreConfig::fromJson(JsonFields::parse(query.text(4), what + ": configuration"),
                                    true, what);
    s.cpi = query.real(5);
    s.minBoundCpi = query.real(6);
    if (!std::isfinite(s.cpi) || !(s.cpi > 0) || !std::isfinite(s.minBoundCpi) ||
        !(s.minBoundCpi > 0))
        throw badInput(what + ": CPI must be positive");
    s.instructions = static_cast<std::uint64_t>(query.int64(7));
    s.features = FeatureVectorCodec::decode(query.blob(8), width, what);
    return s;
}

std::vector<DatasetSample> DatasetFile::samples(const std::set<std::string>& splits) {
    const std::size_t width = layout().width();
    std::vector<DatasetSample> out;
    auto query =
        connection_->prepare(std::string(kSampleColumns) + " ORDER BY id", "reading samples");
    while (query.step()) {
        if (!splits.empty() && !splits.contains(query.text(3)))
            continue;
        out.push_back(decodeSample(query, width));
    }
    return out;
}

std::vector<DatasetFile::RemovedSample> DatasetFile::removeDamagedSamples() {
    const std::size_t width = layout().width();
    std::vector<RemovedSample> removed;
    {
        auto query =
            connection_->prepare(std::string(kSampleColumns) + " ORDER BY id", "checking samples");
        while (query.step()) {
            try {
                decodeSample(query, width);
            } catch (const ConcordeError& e) {
                removed.push_back({query.int64(0), e.what()});
            }
        }
    }
    if (removed.empty())
        return removed;
    SqliteTransaction transaction(*connection_);
    auto erase = connection_->prepare("DELETE FROM samples WHERE id = ?1", "removing samples");
    for (const RemovedSample& sample : removed)
        erase.bind(1, sample.id).run();
    transaction.commit();
    return removed;
}

} // namespace concorde
