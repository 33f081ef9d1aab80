#include "store/RecordBlobCodec.h"

#include "common/BlobPreamble.h"
#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"
#include "common/ZstdFrame.h"
#include "trace/RecordCodec.h"

namespace concorde {
namespace {

constexpr unsigned char kRecordBlobMagic[4] = {'C', 'R', 'B', '1'};
/// A record takes at most a few dozen bytes encoded; anything beyond this per record is damage.
constexpr std::uint64_t kMaxBytesPerRecord = 256;

} // namespace

std::vector<std::uint8_t> RecordBlobCodec::encode(std::span<const TraceRecord> records) {
    RecordCodec codec;
    std::vector<unsigned char> raw;
    raw.reserve(records.size() * 10);
    for (const TraceRecord& record : records)
        codec.encode(record, raw);
    if (raw.size() > 0xffffffffu || records.size() > 0xffffffffu)
        throw usageError("region too large to store in the database (" +
                         std::to_string(records.size()) + " records)");
    const std::vector<std::uint8_t> frame = zstd::compress(raw, kLevel);
    const std::size_t compressed = frame.size();
    std::vector<std::uint8_t> blob(kHeaderSize);
    blob.insert(blob.end(), frame.begin(), frame.end());
    unsigned char* p = blob.data();
    BlobPreamble::write(p, kRecordBlobMagic, kVersion);
    le::store32(p + 8, static_cast<std::uint32_t>(records.size()));
    le::store32(p + 12, static_cast<std::uint32_t>(raw.size()));
    le::store32(p + 16, static_cast<std::uint32_t>(compressed));
    le::store32(p + 20, crc32(p + kHeaderSize, compressed, crc32(p, 20)));
    return blob;
}

std::vector<TraceRecord> RecordBlobCodec::decode(std::span<const std::uint8_t> blob,
                                                 const std::string& what,
                                                 std::int64_t expectedCount) {
    if (blob.size() < kHeaderSize)
        throw badInput(what + ": record blob too short (" + std::to_string(blob.size()) +
                       " bytes; the header alone is 24)");
    const unsigned char* p = blob.data();
    for (int i = 0; i < 4; ++i)
        if (p[i] != kRecordBlobMagic[i])
            throw badInput(what + ": not a record blob (wrong magic bytes, expected \"CRB1\")");
    const unsigned version = BlobPreamble::version(p);
    if (version != kVersion)
        throw badInput(what + ": record blob format version " + std::to_string(version) +
                       " is not supported (this build reads version 1)");
    const std::uint32_t count = le::load32(p + 8);
    const std::uint32_t rawSize = le::load32(p + 12);
    const std::uint32_t compressedSize = le::load32(p + 16);
    if (blob.size() - kHeaderSize != compressedSize)
        throw badInput(what + ": record blob is " + std::to_string(blob.size()) +
                       " bytes but its header declares " +
                       std::to_string(compressedSize + kHeaderSize));
    if (crc32(p + kHeaderSize, compressedSize, crc32(p, 20)) != le::load32(p + 20))
        throw badInput(what + ": record blob CRC mismatch (the stored bytes are corrupt)");
    if (expectedCount >= 0 && count != expectedCount)
        throw badInput(what + ": holds " + std::to_string(count) + " records, expected " +
                       std::to_string(expectedCount));
    if (rawSize > std::uint64_t(count) * kMaxBytesPerRecord ||
        count > rawSize / RecordCodec::kMinEncodedBytes)
        throw badInput(what + ": record blob declares " + std::to_string(rawSize) + " bytes for " +
                       std::to_string(count) + " records");
    const std::vector<std::uint8_t> raw =
        zstd::decompress({p + kHeaderSize, compressedSize}, rawSize, what + ": record blob");
    std::vector<TraceRecord> records(count);
    RecordCodec codec;
    const unsigned char* cursor = raw.data();
    const unsigned char* end = raw.data() + raw.size();
    for (std::uint32_t i = 0; i < count; ++i)
        if (!codec.decode(cursor, end, records[i]))
            throw badInput(what + ": record " + std::to_string(i) + " does not decode");
    if (cursor != end)
        throw badInput(what + ": record blob has " + std::to_string(end - cursor) +
                       " bytes after its last record");
    return records;
}

} // namespace concorde
