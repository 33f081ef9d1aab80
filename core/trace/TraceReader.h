#pragma once

#include "trace/TraceInfo.h"
#include "trace/TraceRecord.h"

#include <cstdio>
#include <filesystem>
#include <vector>

namespace concorde {

/// Reads a .ctrace one block at a time. Opening validates the header, the region table and the
/// block index; reading validates each block's checksum and encoding. Every problem is a
/// TraceFormatError with the byte offset; a reader never returns a record it could not verify.
class TraceReader {
public:
    explicit TraceReader(const std::filesystem::path& path);
    ~TraceReader();
    TraceReader(const TraceReader&) = delete;
    TraceReader& operator=(const TraceReader&) = delete;

    const TraceInfo& info() const { return info_; }
    std::uint64_t recordCount() const { return info_.recordCount; }
    const std::filesystem::path& path() const { return path_; }

    /// Positions the stream so that next() returns record `index` (0-based, in file order).
    void seekRecord(std::uint64_t index);
    /// Reads the next record; false at the end of the trace.
    bool next(TraceRecord& record);

    /// Reads region `regionIndex` whole (warm-up records first) into `records`.
    void readRegion(std::size_t regionIndex, std::vector<TraceRecord>& records);

    /// Reads every block and checks it; throws on the first problem.
    void verifyAll();

private:
    struct BlockEntry {
        std::uint64_t offset;
        std::uint64_t firstRecord;
        std::uint32_t recordCount;
    };

    void readHeaderAndMetadata();
    void loadBlock(std::size_t blockIndex);
    [[noreturn]] void fail(std::uint64_t offset, const std::string& problem) const;

    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
    std::uint64_t fileSize_ = 0;
    TraceInfo info_;
    std::vector<BlockEntry> blocks_;
    std::vector<TraceRecord> current_; ///< decoded records of the loaded block
    std::size_t currentBlock_ = static_cast<std::size_t>(-1);
    std::size_t positionInBlock_ = 0;
    std::vector<unsigned char> compressed_;
    std::vector<unsigned char> raw_;
};

} // namespace concorde
