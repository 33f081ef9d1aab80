#include "trace/TraceWriter.h"

#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"
#include "trace/RecordCodec.h"
#include "trace/TraceFormat.h"
#include "trace/TraceMetadataJson.h"

#include <nlohmann/json.hpp>
#include <zstd.h>

namespace concorde {

namespace tf = trace_format;

TraceWriter::TraceWriter(const std::filesystem::path& path, TraceInfo info)
    : TraceWriter(path, std::move(info), Options{}) {}

TraceWriter::TraceWriter(const std::filesystem::path& path, TraceInfo info, Options options)
    : file_(path), info_(std::move(info)), options_(options) {
    if (options_.recordsPerBlock == 0 || options_.recordsPerBlock > tf::kMaxRecordsPerBlock)
        throw usageError("records per block must be 1.." + std::to_string(tf::kMaxRecordsPerBlock));
    info_.regions.clear();
    info_.recordCount = 0;
    // A zeroed header: the real one is written by finish(), so an unfinished file never
    // passes validation even if it somehow survived.
    unsigned char header[tf::kFileHeaderBytes] = {};
    file_.write(header, sizeof header);
    raw_.reserve(static_cast<std::size_t>(options_.recordsPerBlock) * 16);
}

TraceWriter::~TraceWriter() = default; // AtomicFile discards an unfinished file

void TraceWriter::beginRegion(std::uint64_t programStart, std::uint64_t warmup) {
    if (finished_)
        throw runtimeFailure("trace writer: beginRegion after finish");
    if (regionOpen_)
        endRegion();
    Region region;
    region.programStart = programStart;
    region.warmup = warmup;
    region.firstRecord = info_.recordCount;
    info_.regions.push_back(std::move(region));
    announcedWarmup_ = warmup;
    regionOpen_ = true;
}

void TraceWriter::append(const TraceRecord& record) {
    if (!regionOpen_)
        throw runtimeFailure("trace writer: record appended outside a region");
    codec_.encode(record, raw_);
    ++blockRecords_;
    ++info_.recordCount;
    if (blockRecords_ == options_.recordsPerBlock)
        flushBlock();
}

std::uint64_t TraceWriter::regionRecordCount() const {
    return regionOpen_ ? info_.recordCount - info_.regions.back().firstRecord : 0;
}

void TraceWriter::endRegion() {
    if (!regionOpen_)
        return;
    Region& region = info_.regions.back();
    const std::uint64_t total = info_.recordCount - region.firstRecord;
    region.warmup = std::min(announcedWarmup_, total);
    region.length = total - region.warmup;
    regionOpen_ = false;
    // A region with nothing measured has no CPI: every reader would divide by zero.
    if (region.length == 0)
        throw badInput("region " + std::to_string(info_.regions.size() - 1) +
                       " has no measured instructions: its warm-up of " +
                       std::to_string(announcedWarmup_) + " takes all " + std::to_string(total) +
                       " of its records (lower the warm-up or trace more)");
}

void TraceWriter::setBasicBlockVector(std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv) {
    if (info_.regions.empty())
        throw runtimeFailure("trace writer: basic-block vector without a region");
    info_.regions.back().basicBlockVector = std::move(bbv);
}

void TraceWriter::setWarmState(std::uint64_t functionalWarmup,
                               std::vector<std::uint8_t> warmState) {
    if (info_.regions.empty())
        throw runtimeFailure("trace writer: warm state without a region");
    info_.regions.back().functionalWarmup = functionalWarmup;
    info_.regions.back().warmState = std::move(warmState);
}

void TraceWriter::flushBlock() {
    if (blockRecords_ == 0)
        return;
    compressed_.resize(ZSTD_compressBound(raw_.size()));
    const std::size_t compressedSize =
        ZSTD_compress(compressed_.data(), compressed_.size(), raw_.data(), raw_.size(),
                      options_.compressionLevel);
    if (ZSTD_isError(compressedSize))
        throw runtimeFailure(std::string("zstd compression failed: ") +
                             ZSTD_getErrorName(compressedSize));

    unsigned char header[tf::kBlockHeaderBytes] = {};
    le::store32(header + tf::kBlockMagicOffset, tf::kBlockMagic);
    le::store32(header + tf::kBlockRecordCount, blockRecords_);
    le::store32(header + tf::kBlockRawBytes, static_cast<std::uint32_t>(raw_.size()));
    le::store32(header + tf::kBlockCompressedBytes, static_cast<std::uint32_t>(compressedSize));
    const std::uint64_t firstRecord = info_.recordCount - blockRecords_;
    le::store64(header + tf::kBlockFirstRecord, firstRecord);
    le::store32(header + tf::kBlockPayloadCrc, crc32(compressed_.data(), compressedSize));
    le::store32(header + tf::kBlockHeaderCrc, crc32(header, tf::kBlockHeaderCrc));

    blocks_.push_back({file_.position(), firstRecord, blockRecords_});
    file_.write(header, sizeof header);
    file_.write(compressed_.data(), compressedSize);
    raw_.clear();
    blockRecords_ = 0;
    codec_.reset();
}

void TraceWriter::finish() {
    if (finished_)
        return;
    endRegion();
    flushBlock();

    nlohmann::json metadata = traceInfoToJson(info_);
    nlohmann::json index = nlohmann::json::array();
    for (const auto& block : blocks_)
        index.push_back({block.offset, block.firstRecord, block.recordCount});
    metadata["blocks"] = std::move(index);
    const std::string text = metadata.dump();
    std::vector<unsigned char> packed(ZSTD_compressBound(text.size()) + 4);
    const std::size_t packedSize =
        ZSTD_compress(packed.data(), packed.size() - 4, text.data(), text.size(), 9);
    if (ZSTD_isError(packedSize))
        throw runtimeFailure("zstd compression of the region table failed");
    le::store32(packed.data() + packedSize, crc32(packed.data(), packedSize));
    const std::uint64_t metadataOffset = file_.position();
    file_.write(packed.data(), packedSize + 4);

    unsigned char header[tf::kFileHeaderBytes] = {};
    std::copy(tf::kMagic.begin(), tf::kMagic.end(), header);
    le::store32(header + tf::kHeaderVersion, tf::kVersion);
    le::store32(header + tf::kHeaderHeaderBytes, tf::kFileHeaderBytes);
    le::store64(header + tf::kHeaderMetadataOffset, metadataOffset);
    le::store64(header + tf::kHeaderMetadataBytes, packedSize + 4);
    le::store64(header + tf::kHeaderRecordCount, info_.recordCount);
    le::store64(header + tf::kHeaderBlockCount, blocks_.size());
    le::store32(header + tf::kHeaderCrc, crc32(header, tf::kHeaderCrc));
    file_.writeAt(0, header, sizeof header);
    file_.commit();
    finished_ = true;
}

} // namespace concorde
