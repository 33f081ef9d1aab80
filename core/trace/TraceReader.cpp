#include "trace/TraceReader.h"

#include "common/Crc32.h"
#include "common/JsonFields.h"
#include "common/LittleEndian.h"
#include "common/ZstdFrame.h"
#include "trace/RecordCodec.h"
#include "trace/TraceFormat.h"
#include "trace/TraceFormatError.h"
#include "trace/TraceMetadataJson.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <zstd.h>

namespace concorde {

namespace tf = trace_format;

TraceReader::TraceReader(const std::filesystem::path& path) : path_(path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path_, ec))
        throw badInput(path_.string() + " is a directory, not a trace file");
    if (!std::filesystem::is_regular_file(path_, ec))
        throw badInput(path_.string() + ": no such trace file");
    file_ = std::fopen(path_.c_str(), "rb");
    if (!file_)
        throw badInput(path_.string() + ": cannot open: " + std::strerror(errno));
    fileSize_ = std::filesystem::file_size(path_, ec);
    try {
        readHeaderAndMetadata();
    } catch (...) {
        std::fclose(file_);
        file_ = nullptr;
        throw;
    }
}

TraceReader::~TraceReader() {
    if (file_)
        std::fclose(file_);
}

void TraceReader::fail(std::uint64_t offset, const std::string& problem) const {
    throw TraceFormatError(path_.string(), offset, problem);
}

namespace {

/// Records readRegion() makes room for before it reads any (a block's worth of a typical trace).
constexpr std::uint64_t kRegionReserve = 65536;

bool readAt(std::FILE* file, std::uint64_t offset, void* buffer, std::size_t size) {
    return std::fseek(file, static_cast<long>(offset), SEEK_SET) == 0 &&
           std::fread(buffer, 1, size, file) == size;
}

} // namespace

void TraceReader::readHeaderAndMetadata() {
    unsigned char header[tf::kFileHeaderBytes];
    if (fileSize_ < tf::kFileHeaderBytes || !readAt(file_, 0, header, sizeof header))
        fail(fileSize_, "truncated: a .ctrace header needs " +
                            std::to_string(tf::kFileHeaderBytes) + " bytes, the file has " +
                            std::to_string(fileSize_));
    if (!std::equal(tf::kMagic.begin(), tf::kMagic.end(), header)) {
        if (std::all_of(header, header + sizeof header, [](unsigned char b) { return b == 0; }))
            fail(0, "incomplete trace: its writer never finished (empty header)");
        fail(0, "not a .ctrace file (bad magic)");
    }
    const std::uint32_t version = le::load32(header + tf::kHeaderVersion);
    if (version < tf::kOldestReadableVersion || version > tf::kVersion)
        fail(tf::kHeaderVersion, "unsupported .ctrace version " + std::to_string(version) +
                                     " (this build reads versions " +
                                     std::to_string(tf::kOldestReadableVersion) + " to " +
                                     std::to_string(tf::kVersion) + ")");
    if (le::load32(header + tf::kHeaderCrc) != crc32(header, tf::kHeaderCrc))
        fail(tf::kHeaderCrc, "corrupt header: checksum mismatch");
    const std::uint64_t metadataOffset = le::load64(header + tf::kHeaderMetadataOffset);
    const std::uint64_t metadataBytes = le::load64(header + tf::kHeaderMetadataBytes);
    const std::uint64_t recordCount = le::load64(header + tf::kHeaderRecordCount);
    const std::uint64_t blockCount = le::load64(header + tf::kHeaderBlockCount);
    if (metadataBytes < 5 || metadataBytes > tf::kMaxMetadataBytes ||
        metadataOffset < tf::kFileHeaderBytes)
        fail(tf::kHeaderMetadataOffset, "corrupt header: impossible region-table location");
    // Subtraction, not addition: an offset near 2^64 would wrap the sum past this check and the
    // declared size would be allocated below before the read fails.
    if (metadataOffset > fileSize_ || metadataBytes > fileSize_ - metadataOffset)
        fail(fileSize_, "truncated: the region table (" + std::to_string(metadataBytes) +
                            " bytes at byte " + std::to_string(metadataOffset) +
                            ") runs past the end of the file (" + std::to_string(fileSize_) +
                            " bytes)");

    std::vector<unsigned char> packed(metadataBytes);
    if (!readAt(file_, metadataOffset, packed.data(), packed.size()))
        fail(metadataOffset, "cannot read the region table");
    const std::size_t payload = packed.size() - 4;
    if (le::load32(packed.data() + payload) != crc32(packed.data(), payload))
        fail(metadataOffset, "corrupt region table: checksum mismatch");
    const unsigned long long textSize = ZSTD_getFrameContentSize(packed.data(), payload);
    if (textSize == ZSTD_CONTENTSIZE_ERROR || textSize == ZSTD_CONTENTSIZE_UNKNOWN ||
        textSize > tf::kMaxMetadataBytes)
        fail(metadataOffset, "corrupt region table: bad compressed frame");
    // zstd::decompress allocates no more than the frame's blocks can hold, whatever textSize
    // the frame declares.
    std::string text;
    try {
        const auto raw = zstd::decompress({packed.data(), payload}, textSize, "region table");
        text.assign(raw.begin(), raw.end());
    } catch (const ConcordeError&) {
        fail(metadataOffset, "corrupt region table: decompression failed");
    }

    nlohmann::json metadata;
    try {
        metadata = JsonFields::parse(text, "trace metadata");
        info_ = traceInfoFromJson(metadata);
        const nlohmann::json& blocks = JsonFields(metadata, "trace metadata").array("blocks");
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            const std::string what = "trace metadata: blocks[" + std::to_string(i) + "]";
            const nlohmann::json& entry = JsonFields::requireArray(blocks[i], what, 3);
            const std::uint64_t count = JsonFields::requireCount(entry[2], what);
            if (count > tf::kMaxRecordsPerBlock)
                throw badInput(what + ": more records than a block holds");
            blocks_.push_back({JsonFields::requireCount(entry[0], what),
                               JsonFields::requireCount(entry[1], what),
                               static_cast<std::uint32_t>(count)});
        }
    } catch (const ConcordeError& e) {
        fail(metadataOffset, std::string("corrupt region table: ") + e.what());
    }

    // Cross-check the index against the header so later reads can trust it.
    if (info_.recordCount != recordCount || blocks_.size() != blockCount)
        fail(metadataOffset, "region table disagrees with the header (record or block count)");
    std::uint64_t expectedRecord = 0;
    std::uint64_t minOffset = tf::kFileHeaderBytes;
    for (const auto& block : blocks_) {
        if (block.firstRecord != expectedRecord || block.recordCount == 0 ||
            block.recordCount > tf::kMaxRecordsPerBlock || block.offset < minOffset ||
            block.offset + tf::kBlockHeaderBytes > metadataOffset)
            fail(metadataOffset, "corrupt block index");
        expectedRecord += block.recordCount;
        minOffset = block.offset + tf::kBlockHeaderBytes;
    }
    if (expectedRecord != recordCount)
        fail(metadataOffset, "block index does not cover every record");
    std::uint64_t expectedFirst = 0;
    for (const auto& region : info_.regions) {
        if (region.length == 0) // nothing measured: no CPI to compute, only a division by zero
            fail(metadataOffset, "region " + std::to_string(&region - info_.regions.data()) +
                                     " has no measured instructions");
        if (region.firstRecord != expectedFirst ||
            region.firstRecord + region.totalRecords() > recordCount)
            fail(metadataOffset, "region table entries overlap or run past the last record");
        expectedFirst = region.firstRecord + region.totalRecords();
    }
}

void TraceReader::loadBlock(std::size_t blockIndex) {
    const BlockEntry& block = blocks_[blockIndex];
    unsigned char header[tf::kBlockHeaderBytes];
    if (!readAt(file_, block.offset, header, sizeof header))
        fail(block.offset, "truncated block " + std::to_string(blockIndex));
    if (le::load32(header + tf::kBlockHeaderCrc) != crc32(header, tf::kBlockHeaderCrc) ||
        le::load32(header + tf::kBlockMagicOffset) != tf::kBlockMagic)
        fail(block.offset, "corrupt block " + std::to_string(blockIndex) + " header");
    const std::uint32_t records = le::load32(header + tf::kBlockRecordCount);
    const std::uint32_t rawBytes = le::load32(header + tf::kBlockRawBytes);
    const std::uint32_t compressedBytes = le::load32(header + tf::kBlockCompressedBytes);
    if (records != block.recordCount ||
        le::load64(header + tf::kBlockFirstRecord) != block.firstRecord ||
        rawBytes > static_cast<std::uint64_t>(records) * tf::kMaxEncodedRecordBytes ||
        records > rawBytes / RecordCodec::kMinEncodedBytes ||
        block.offset + tf::kBlockHeaderBytes + compressedBytes > fileSize_)
        fail(block.offset, "corrupt block " + std::to_string(blockIndex) +
                               " header (sizes disagree with the index)");

    const std::uint64_t payloadOffset = block.offset + tf::kBlockHeaderBytes;
    compressed_.resize(compressedBytes);
    if (!readAt(file_, payloadOffset, compressed_.data(), compressed_.size()))
        fail(payloadOffset, "truncated block " + std::to_string(blockIndex));
    if (le::load32(header + tf::kBlockPayloadCrc) != crc32(compressed_.data(), compressedBytes))
        fail(payloadOffset, "corrupt block " + std::to_string(blockIndex) + ": checksum mismatch");
    // The header's sizes are checked against the bytes present before anything is allocated.
    const auto bound = zstd::decompressedBound(compressed_);
    if (!bound || rawBytes > *bound)
        fail(payloadOffset,
             "corrupt block " + std::to_string(blockIndex) + ": decompression failed");
    raw_.resize(rawBytes);
    const std::size_t got =
        ZSTD_decompress(raw_.data(), raw_.size(), compressed_.data(), compressed_.size());
    if (ZSTD_isError(got) || got != rawBytes)
        fail(payloadOffset,
             "corrupt block " + std::to_string(blockIndex) + ": decompression failed");

    current_.resize(records);
    RecordCodec codec;
    const unsigned char* cursor = raw_.data();
    const unsigned char* end = raw_.data() + raw_.size();
    for (std::uint32_t i = 0; i < records; ++i)
        if (!codec.decode(cursor, end, current_[i]))
            fail(payloadOffset, "corrupt block " + std::to_string(blockIndex) + ": record " +
                                    std::to_string(block.firstRecord + i) + " is malformed");
    if (cursor != end)
        fail(payloadOffset, "corrupt block " + std::to_string(blockIndex) + ": trailing bytes");
    currentBlock_ = blockIndex;
}

void TraceReader::seekRecord(std::uint64_t index) {
    if (index >= info_.recordCount) {
        currentBlock_ = blocks_.size();
        positionInBlock_ = 0;
        return;
    }
    const auto it = std::upper_bound(
        blocks_.begin(), blocks_.end(), index,
        [](std::uint64_t value, const BlockEntry& b) { return value < b.firstRecord; });
    const auto blockIndex = static_cast<std::size_t>(it - blocks_.begin()) - 1;
    if (blockIndex != currentBlock_)
        loadBlock(blockIndex);
    positionInBlock_ = static_cast<std::size_t>(index - blocks_[blockIndex].firstRecord);
}

bool TraceReader::next(TraceRecord& record) {
    if (currentBlock_ == static_cast<std::size_t>(-1)) {
        if (blocks_.empty())
            return false;
        loadBlock(0);
        positionInBlock_ = 0;
    }
    if (currentBlock_ >= blocks_.size())
        return false;
    if (positionInBlock_ == current_.size()) {
        if (currentBlock_ + 1 >= blocks_.size()) {
            currentBlock_ = blocks_.size();
            return false;
        }
        loadBlock(currentBlock_ + 1);
        positionInBlock_ = 0;
    }
    record = current_[positionInBlock_++];
    return true;
}

void TraceReader::readRegion(std::size_t regionIndex, std::vector<TraceRecord>& records) {
    if (regionIndex >= info_.regions.size())
        throw badInput(path_.string() + ": region " + std::to_string(regionIndex) +
                       " does not exist (the trace has " + std::to_string(info_.regions.size()) +
                       ")");
    const Region& region = info_.regions[regionIndex];
    // The index may declare 2^20 records per 32 bytes of file: grow with the records actually
    // read from verified blocks instead of allocating the declared count up front.
    records.clear();
    records.reserve(std::min<std::uint64_t>(region.totalRecords(), kRegionReserve));
    seekRecord(region.firstRecord);
    TraceRecord record;
    for (std::uint64_t i = 0; i < region.totalRecords(); ++i) {
        if (!next(record))
            fail(fileSize_, "region " + std::to_string(regionIndex) + " ends early");
        records.push_back(record);
    }
}

void TraceReader::verifyAll() {
    for (std::size_t i = 0; i < blocks_.size(); ++i)
        loadBlock(i);
    currentBlock_ = static_cast<std::size_t>(-1);
}

} // namespace concorde
