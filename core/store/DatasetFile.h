#pragma once

#include "features/FeatureLayout.h"
#include "params/CoreConfig.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace concorde {

class SqliteStatement;

class SqliteConnection;

/// One training or evaluation sample: a region, a configuration on the grid, the raw feature
/// vector for exactly that configuration, the reference simulator's CPI, and the min-of-bounds
/// CPI (the analytical baseline without ML).
struct DatasetSample {
    std::int64_t id = 0; ///< the sample's draw index (its position in the seeded sample plan)
    std::string program;
    std::uint32_t regionIndex = 0;
    std::string split; ///< "train", "test" (regions never trained on) or "held_out" (programs)
    CoreConfig config;
    double cpi = 0;
    double minBoundCpi = 0;
    std::uint64_t instructions = 0;
    std::vector<float> features;
};

/// What a dataset was drawn with; a resumed run must ask for the same.
struct DatasetSettings {
    std::uint64_t seed = 1;
    std::vector<std::string> holdOut; ///< sorted
    std::string sources;              ///< canonical description of the inputs (JSON text)
    std::string gridText;             ///< GridDescription::canonicalText
    std::string layoutJson;           ///< FeatureLayout::toJson, dumped

    /// Whether the features have the LQ bound through commit (sources.load_queue_model,
    /// absent in files drawn with the loads-only one; AnalysisRevision).
    bool loadQueueThroughCommit() const;
};

/// A dataset file (`concorde dataset`): an SQLite file with a `meta` table (format
/// "concorde-dataset", version, the settings) and a `samples` table, one row per sample with the
/// features as a FeatureVectorCodec blob. Samples are written region by region, each batch in one
/// transaction, so an interrupted run keeps every finished region and resumes from there.
class DatasetFile {
public:
    static constexpr int kVersion = 1;

    /// Opens `path` for writing, creating it if missing. An existing dataset must have been drawn
    /// with the same settings (a bad-input error says which differs); any other file is refused.
    static DatasetFile openForWriting(const std::filesystem::path& path,
                                      const DatasetSettings& settings);
    /// Opens an existing dataset for reading (bad-input errors for a missing file, an SQLite
    /// file that is not a dataset, or an unknown version).
    static DatasetFile openReadOnly(const std::filesystem::path& path);
    /// A stored label without its features: what a re-featured dataset can reuse.
    struct StoredLabel {
        std::string program;
        std::uint32_t regionIndex = 0;
        CoreConfig config;
        double cpi = 0;
        std::uint64_t instructions = 0;
    };
    /// Every sample's label of the dataset at `path`, by id, whatever its feature layout.
    static std::map<std::int64_t, StoredLabel> storedLabels(const std::filesystem::path& path);
    /// True if `path` is an SQLite file whose meta says it is a dataset.
    static bool isDataset(const std::filesystem::path& path);

    DatasetFile(DatasetFile&&) noexcept;
    DatasetFile& operator=(DatasetFile&&) noexcept;
    ~DatasetFile();

    const DatasetSettings& settings() const { return settings_; }
    FeatureLayout layout() const;
    const std::filesystem::path& path() const { return path_; }

    /// Ids of the samples already stored.
    std::set<std::int64_t> sampleIds();
    std::size_t sampleCount();
    /// Writes a batch in one transaction (replacing samples with the same ids).
    void write(const std::vector<DatasetSample>& samples);
    /// Samples (features decoded and checked against the layout's width), in id order; only
    /// those whose split is in `splits` when it is non-empty.
    std::vector<DatasetSample> samples(const std::set<std::string>& splits = {});
    /// A sample that failed its check and was removed: its id and what was wrong.
    struct RemovedSample {
        std::int64_t id = 0;
        std::string problem;
    };
    /// Checks every stored sample exactly as samples() reads it and deletes, in one transaction,
    /// those that fail (left by a crash or damage): a resumed run draws them again instead of
    /// appending to rows that training would later reject. Returns what was removed.
    std::vector<RemovedSample> removeDamagedSamples();

private:
    DatasetFile(std::filesystem::path path, std::unique_ptr<SqliteConnection> connection,
                DatasetSettings settings);
    static DatasetSettings readSettings(SqliteConnection& connection,
                                        const std::filesystem::path& path);
    /// One row of the query in samples() (columns id, program, region_index, split, config_json,
    /// cpi, min_bound_cpi, instructions, features) decoded and checked; a bad-input error naming
    /// the sample if it is malformed.
    DatasetSample decodeSample(SqliteStatement& query, std::size_t width) const;

    std::filesystem::path path_;
    std::unique_ptr<SqliteConnection> connection_;
    DatasetSettings settings_;
};

} // namespace concorde
