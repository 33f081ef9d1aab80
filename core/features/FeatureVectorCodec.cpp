#include "features/FeatureVectorCodec.h"

#include "common/BlobPreamble.h"
#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"

#include <bit>
#include <limits>

namespace concorde {
namespace {

constexpr unsigned char kMagic[4] = {'C', 'F', 'V', '1'};

std::string hexMagic(const std::uint8_t* p) {
    static const char* digits = "0123456789abcdef";
    std::string text;
    for (int i = 0; i < 4; ++i) {
        text += digits[p[i] >> 4];
        text += digits[p[i] & 15];
    }
    return text;
}

} // namespace

std::vector<std::uint8_t> FeatureVectorCodec::encode(std::span<const float> values) {
    if (values.size() > std::numeric_limits<std::uint32_t>::max())
        throw usageError("feature blob: too many values (" + std::to_string(values.size()) + ")");
    std::vector<std::uint8_t> blob(encodedSize(values.size()));
    unsigned char* p = blob.data();
    BlobPreamble::write(p, kMagic, kVersion);
    le::store32(p + 8, static_cast<std::uint32_t>(values.size()));
    unsigned char* payload = p + kHeaderSize;
    for (std::size_t i = 0; i < values.size(); ++i)
        le::store32(payload + 4 * i, std::bit_cast<std::uint32_t>(values[i]));
    le::store32(p + 12, crc32(payload, 4 * values.size()));
    return blob;
}

std::vector<float> FeatureVectorCodec::decode(std::span<const std::uint8_t> blob,
                                              std::optional<std::size_t> expectedCount,
                                              const std::string& what) {
    if (blob.size() < kHeaderSize)
        throw badInput(what + ": too short (" + std::to_string(blob.size()) +
                       " bytes; the header alone is " + std::to_string(kHeaderSize) + ")");
    const unsigned char* p = blob.data();
    for (int i = 0; i < 4; ++i)
        if (p[i] != kMagic[i])
            throw badInput(what + ": not a feature vector (magic bytes " + hexMagic(p) +
                           ", expected " + hexMagic(kMagic) + " \"CFV1\")");
    const unsigned version = BlobPreamble::version(p);
    if (version != kVersion)
        throw badInput(what + ": format version " + std::to_string(version) +
                       " is not supported (this build reads version " + std::to_string(kVersion) +
                       ")");
    const std::size_t count = le::load32(p + 8);
    // Compare in 64 bits: a corrupt count must not overflow the expected size.
    const std::uint64_t expectedBytes = kHeaderSize + 4 * static_cast<std::uint64_t>(count);
    if (blob.size() != expectedBytes)
        throw badInput(what + ": header declares " + std::to_string(count) + " values (" +
                       std::to_string(expectedBytes) + " bytes) but the blob is " +
                       std::to_string(blob.size()) + " bytes");
    if (expectedCount && count != *expectedCount)
        throw badInput(what + ": holds " + std::to_string(count) + " values, expected " +
                       std::to_string(*expectedCount));
    const unsigned char* payload = p + kHeaderSize;
    const std::uint32_t stored = le::load32(p + 12);
    const std::uint32_t actual = crc32(payload, 4 * count);
    if (stored != actual)
        throw badInput(what + ": checksum mismatch (the values are corrupt)");
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i)
        values[i] = std::bit_cast<float>(le::load32(payload + 4 * i));
    return values;
}

} // namespace concorde
