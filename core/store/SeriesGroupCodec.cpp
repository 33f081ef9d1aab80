#include "store/SeriesGroupCodec.h"

#include "common/BlobPreamble.h"
#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"
#include "common/ZstdFrame.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <zstd.h>

namespace concorde {
namespace {

constexpr unsigned char kSeriesGroupMagic[4] = {'C', 'S', 'G', '1'};
constexpr std::uint8_t kModeQuantised = 0;
constexpr std::uint8_t kModeRaw = 1;
constexpr std::size_t kSeriesHeader = 5;
/// Codes at or above 2^128 would decode to infinity: values that close to FLT_MAX are stored raw.
constexpr std::uint32_t kMaxCode = SeriesGroupCodec::kCodeOffset + 128 * 1024 - 1;
/// Refuse to allocate more than this for one decoded group, whatever a header claims.
constexpr std::uint64_t kMaxPayload = std::uint64_t(1) << 30;

bool quantise(float value, std::uint32_t& code) {
    if (value == 0.0f) {
        code = 0;
        return true;
    }
    if (!(value > 0.0f) || !std::isfinite(value))
        return false;
    const long long q =
        std::llround(std::log2(static_cast<double>(value)) * SeriesGroupCodec::kStepsPerOctave);
    code = static_cast<std::uint32_t>(q + SeriesGroupCodec::kCodeOffset);
    return code <= kMaxCode;
}

/// 2^(f / kStepsPerOctave) for every fraction f of an octave.
const std::array<double, SeriesGroupCodec::kStepsPerOctave>& octaveFractions() {
    static const auto table = [] {
        std::array<double, SeriesGroupCodec::kStepsPerOctave> t{};
        for (std::uint32_t f = 0; f < t.size(); ++f)
            t[f] = std::exp2(static_cast<double>(f) / SeriesGroupCodec::kStepsPerOctave);
        return t;
    }();
    return table;
}

// Decoding every series of a database spends most of its time here, so 2^(q / 1024) is a table
// entry scaled by an exact power of two instead of std::exp2: 8x faster, and the float it gives
// is the same as exp2's for every code (checked exhaustively when this was written).
float dequantise(std::uint32_t code) {
    static_assert(SeriesGroupCodec::kStepsPerOctave == 1024);
    if (code == 0)
        return 0.0f;
    const std::int32_t q = static_cast<std::int32_t>(code - SeriesGroupCodec::kCodeOffset);
    const std::int32_t octave = q >> 10; // floor(q / 1024)
    if (octave < -1000)
        return 0.0f; // far below the smallest float
    const double scale = std::bit_cast<double>(static_cast<std::uint64_t>(octave + 1023) << 52);
    return static_cast<float>(octaveFractions()[static_cast<std::uint32_t>(q) & 1023u] * scale);
}

std::uint32_t zigzag(std::int32_t r) {
    return (static_cast<std::uint32_t>(r) << 1) ^ static_cast<std::uint32_t>(r >> 31);
}

std::int32_t unzigzag(std::uint32_t z) {
    return static_cast<std::int32_t>(z >> 1) ^ -static_cast<std::int32_t>(z & 1);
}

struct Header {
    std::uint32_t count = 0;
    std::uint32_t windows = 0;
    std::uint32_t payloadSize = 0;
    std::uint32_t compressedSize = 0;
};

Header readHeader(std::span<const std::uint8_t> blob, const std::string& what) {
    if (blob.size() < SeriesGroupCodec::kHeaderSize)
        throw badInput(what + ": series blob too short (" + std::to_string(blob.size()) +
                       " bytes; the header alone is 32)");
    const unsigned char* p = blob.data();
    for (int i = 0; i < 4; ++i)
        if (p[i] != kSeriesGroupMagic[i])
            throw badInput(what + ": not a series blob (wrong magic bytes, expected \"CSG1\")");
    const unsigned version = BlobPreamble::version(p);
    if (version != SeriesGroupCodec::kVersion)
        throw badInput(what + ": series blob format version " + std::to_string(version) +
                       " is not supported (this build reads version 1)");
    Header h;
    h.count = le::load32(p + 8);
    h.windows = le::load32(p + 12);
    const std::uint32_t steps = le::load32(p + 16);
    h.payloadSize = le::load32(p + 20);
    h.compressedSize = le::load32(p + 24);
    if (blob.size() - SeriesGroupCodec::kHeaderSize != h.compressedSize)
        throw badInput(what + ": series blob is " + std::to_string(blob.size()) +
                       " bytes but its header declares " +
                       std::to_string(h.compressedSize + SeriesGroupCodec::kHeaderSize));
    std::uint32_t crc = crc32(p, 28);
    crc = crc32(p + SeriesGroupCodec::kHeaderSize, h.compressedSize, crc);
    if (crc != le::load32(p + 28))
        throw badInput(what + ": series blob CRC mismatch (the stored bytes are corrupt)");
    if (steps != SeriesGroupCodec::kStepsPerOctave)
        throw badInput(what + ": series blob uses " + std::to_string(steps) +
                       " quantisation steps per octave; this build reads 1024");
    const std::uint64_t cells = std::uint64_t(h.count) * h.windows;
    const std::uint64_t minimum = std::uint64_t(h.count) * kSeriesHeader + 3 * cells;
    const std::uint64_t maximum = std::uint64_t(h.count) * kSeriesHeader + 4 * cells;
    if (h.payloadSize < minimum || h.payloadSize > maximum || h.payloadSize > kMaxPayload)
        throw badInput(what + ": series blob payload size " + std::to_string(h.payloadSize) +
                       " does not fit " + std::to_string(h.count) + " series of " +
                       std::to_string(h.windows) + " windows");
    return h;
}

} // namespace

float SeriesGroupCodec::roundTrip(float value) {
    std::uint32_t code = 0;
    return quantise(value, code) ? dequantise(code) : value;
}

std::vector<std::uint8_t>
SeriesGroupCodec::encode(const SeriesMatrix& series,
                         const std::vector<std::vector<std::uint32_t>>& candidates, int level) {
    const std::size_t count = series.count;
    const std::size_t windows = series.windows;
    if (series.values.size() != count * windows)
        throw usageError("series group: " + std::to_string(series.values.size()) + " values for " +
                         std::to_string(count) + " series of " + std::to_string(windows) +
                         " windows");
    std::vector<std::uint32_t> codes(count * windows);
    std::vector<std::uint8_t> quantised(count, 1);
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t t = 0; t < windows && quantised[i]; ++t)
            quantised[i] = quantise(series.values[i * windows + t], codes[i * windows + t]);

    std::vector<std::uint8_t> header(count * kSeriesHeader);
    std::vector<std::uint32_t> residuals;
    residuals.reserve(count * windows);
    std::vector<std::uint32_t> trial(windows);
    std::vector<std::uint32_t> best(windows);
    for (std::size_t i = 0; i < count; ++i) {
        std::uint8_t* h = header.data() + i * kSeriesHeader;
        if (!quantised[i]) {
            h[0] = kModeRaw;
            le::store32(h + 1, 0);
            continue;
        }
        const std::uint32_t* own = codes.data() + i * windows;
        // Reference 0 = own previous window; r > 0 = series r - 1.
        const auto residualsFor = [&](std::uint32_t reference, std::vector<std::uint32_t>& out) {
            std::uint64_t cost = 0;
            for (std::size_t t = 0; t < windows; ++t) {
                const std::uint32_t predicted =
                    reference == 0 ? (t ? own[t - 1] : 0) : codes[(reference - 1) * windows + t];
                const std::uint32_t z = zigzag(static_cast<std::int32_t>(own[t] - predicted));
                out[t] = z;
                cost += z == 0 ? 0 : (z < 256 ? 1 : 2);
            }
            return cost;
        };
        std::uint32_t chosen = 0;
        std::uint64_t bestCost = residualsFor(0, best);
        if (i < candidates.size())
            for (std::uint32_t c : candidates[i]) {
                if (c >= i || !quantised[c])
                    continue;
                const std::uint64_t cost = residualsFor(c + 1, trial);
                if (cost < bestCost) {
                    bestCost = cost;
                    chosen = c + 1;
                    best.swap(trial);
                }
            }
        h[0] = kModeQuantised;
        le::store32(h + 1, chosen);
        residuals.insert(residuals.end(), best.begin(), best.end());
    }

    std::vector<std::uint8_t> payload = std::move(header);
    const std::size_t planeStart = payload.size();
    payload.resize(planeStart + 3 * residuals.size());
    for (std::size_t k = 0; k < residuals.size(); ++k)
        for (std::size_t plane = 0; plane < 3; ++plane)
            payload[planeStart + plane * residuals.size() + k] =
                static_cast<std::uint8_t>(residuals[k] >> (8 * plane));
    for (std::size_t i = 0; i < count; ++i) {
        if (quantised[i])
            continue;
        for (std::size_t t = 0; t < windows; ++t) {
            std::uint8_t bytes[4];
            le::store32(bytes, std::bit_cast<std::uint32_t>(series.values[i * windows + t]));
            payload.insert(payload.end(), bytes, bytes + 4);
        }
    }
    if (payload.size() > kMaxPayload)
        throw usageError("series group too large for one blob (" + std::to_string(payload.size()) +
                         " bytes)");

    const std::vector<std::uint8_t> frame = zstd::compress(payload, level);
    const std::size_t compressed = frame.size();
    std::vector<std::uint8_t> blob(kHeaderSize);
    blob.insert(blob.end(), frame.begin(), frame.end());
    unsigned char* p = blob.data();
    BlobPreamble::write(p, kSeriesGroupMagic, kVersion);
    le::store32(p + 8, static_cast<std::uint32_t>(count));
    le::store32(p + 12, static_cast<std::uint32_t>(windows));
    le::store32(p + 16, kStepsPerOctave);
    le::store32(p + 20, static_cast<std::uint32_t>(payload.size()));
    le::store32(p + 24, static_cast<std::uint32_t>(compressed));
    std::uint32_t crc = crc32(p, 28);
    crc = crc32(p + kHeaderSize, compressed, crc);
    le::store32(p + 28, crc);
    return blob;
}

SeriesMatrix SeriesGroupCodec::peekShape(std::span<const std::uint8_t> blob,
                                         const std::string& what) {
    const Header h = readHeader(blob, what);
    SeriesMatrix shape;
    shape.count = h.count;
    shape.windows = h.windows;
    return shape;
}

SeriesMatrix SeriesGroupCodec::decode(std::span<const std::uint8_t> blob, const std::string& what,
                                      std::int64_t expectedCount, std::int64_t expectedWindows) {
    const Header h = readHeader(blob, what);
    if (expectedCount >= 0 && h.count != expectedCount)
        throw badInput(what + ": holds " + std::to_string(h.count) + " series, expected " +
                       std::to_string(expectedCount));
    if (expectedWindows >= 0 && h.windows != expectedWindows)
        throw badInput(what + ": series have " + std::to_string(h.windows) + " windows, expected " +
                       std::to_string(expectedWindows));
    const std::uint8_t* compressed = blob.data() + kHeaderSize;
    const unsigned long long declared = ZSTD_getFrameContentSize(compressed, h.compressedSize);
    if (declared != h.payloadSize)
        throw badInput(what + ": series blob's compressed frame is damaged or of the wrong size");
    const std::vector<std::uint8_t> payload =
        zstd::decompress({compressed, h.compressedSize}, h.payloadSize, what + ": series blob");

    const std::size_t count = h.count;
    const std::size_t windows = h.windows;
    std::size_t quantisedCount = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint8_t mode = payload[i * kSeriesHeader];
        if (mode != kModeQuantised && mode != kModeRaw)
            throw badInput(what + ": series " + std::to_string(i) + " has unknown mode " +
                           std::to_string(mode));
        quantisedCount += mode == kModeQuantised;
    }
    const std::uint64_t cells = std::uint64_t(quantisedCount) * windows;
    const std::uint64_t expectedSize =
        count * kSeriesHeader + 3 * cells + 4 * std::uint64_t(count - quantisedCount) * windows;
    if (expectedSize != payload.size())
        throw badInput(what + ": series blob payload is " + std::to_string(payload.size()) +
                       " bytes, its series modes need " + std::to_string(expectedSize));

    SeriesMatrix result;
    result.count = h.count;
    result.windows = h.windows;
    result.values.resize(count * windows);
    std::vector<std::uint32_t> codes(count * windows);
    std::vector<std::uint8_t> isQuantised(count);
    const std::uint8_t* planes = payload.data() + count * kSeriesHeader;
    const std::uint8_t* raw = planes + 3 * cells;
    std::size_t cell = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint8_t* sh = payload.data() + i * kSeriesHeader;
        float* out = result.values.data() + i * windows;
        if (sh[0] == kModeRaw) {
            for (std::size_t t = 0; t < windows; ++t, raw += 4)
                out[t] = std::bit_cast<float>(le::load32(raw));
            continue;
        }
        isQuantised[i] = 1;
        const std::uint32_t reference = le::load32(sh + 1);
        if (reference > i || (reference > 0 && !isQuantised[reference - 1]))
            throw badInput(what + ": series " + std::to_string(i) + " refers to series " +
                           std::to_string(reference - 1) +
                           ", which is not an earlier quantised series");
        std::uint32_t* own = codes.data() + i * windows;
        for (std::size_t t = 0; t < windows; ++t, ++cell) {
            const std::uint32_t z = planes[cell] | (std::uint32_t(planes[cells + cell]) << 8) |
                                    (std::uint32_t(planes[2 * cells + cell]) << 16);
            const std::uint32_t predicted =
                reference == 0 ? (t ? own[t - 1] : 0) : codes[(reference - 1) * windows + t];
            const std::uint32_t code = predicted + static_cast<std::uint32_t>(unzigzag(z));
            if (code > kMaxCode)
                throw badInput(what + ": series " + std::to_string(i) + ", window " +
                               std::to_string(t) + " decodes to an impossible value");
            own[t] = code;
            out[t] = dequantise(code);
        }
    }
    return result;
}

} // namespace concorde
