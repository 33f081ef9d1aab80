#pragma once

#include "common/AtomicFile.h"
#include "trace/RecordCodec.h"
#include "trace/TraceInfo.h"
#include "trace/TraceRecord.h"

#include <filesystem>
#include <vector>

namespace concorde {

/// Streams records into a .ctrace file. Memory use is one block of records, whatever the trace
/// length. The file appears under its final name only when finish() succeeds; a writer destroyed
/// before that (an exception, a killed tracer) leaves nothing behind.
///
/// Usage: beginRegion(), append() warm-up then measured records, endRegion(); repeat; finish().
class TraceWriter {
public:
    struct Options {
        std::uint32_t recordsPerBlock = 65536;
        int compressionLevel = 3;
    };

    /// `info.regions` and `info.recordCount` are ignored: the writer builds them.
    TraceWriter(const std::filesystem::path& path, TraceInfo info);
    TraceWriter(const std::filesystem::path& path, TraceInfo info, Options options);
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    /// Starts a region whose first `warmup` appended records are warm-up.
    void beginRegion(std::uint64_t programStart, std::uint64_t warmup);
    void append(const TraceRecord& record);
    /// Closes the current region. If fewer records than announced arrived (the program ended),
    /// the region is kept shorter: warm-up first, then whatever measured records exist.
    void endRegion();
    /// Basic-block vector for the current region (see Region::basicBlockVector).
    void setBasicBlockVector(std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv);
    /// The current region's functional warm-up: its length and the encoded warm state.
    void setWarmState(std::uint64_t functionalWarmup, std::vector<std::uint8_t> warmState);

    /// Writes the region table and renames the file into place. Closes an open region.
    void finish();

    std::uint64_t recordCount() const { return info_.recordCount; }
    /// Records appended to the open region so far (0 when none is open).
    std::uint64_t regionRecordCount() const;

private:
    void flushBlock();

    struct BlockEntry {
        std::uint64_t offset;
        std::uint64_t firstRecord;
        std::uint32_t recordCount;
    };

    AtomicFile file_;
    TraceInfo info_;
    Options options_;
    std::vector<unsigned char> raw_;
    std::vector<unsigned char> compressed_;
    std::uint32_t blockRecords_ = 0;
    std::vector<BlockEntry> blocks_;
    bool regionOpen_ = false;
    bool finished_ = false;
    std::uint64_t announcedWarmup_ = 0;
    RecordCodec codec_; ///< delta state, reset at every block so blocks decode independently
};

} // namespace concorde
