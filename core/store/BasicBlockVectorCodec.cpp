#include "store/BasicBlockVectorCodec.h"

#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"
#include "common/Varint.h"

namespace concorde {
namespace {

void putVarint(std::vector<std::uint8_t>& out, std::uint64_t v) {
    varint::put(out, v);
}

bool getVarint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v) {
    return varint::get(p, end, v);
}

} // namespace

std::vector<std::uint8_t> BasicBlockVectorCodec::encode(const Vector& bbv) {
    std::vector<std::uint8_t> blob(8);
    std::uint64_t previous = 0;
    for (const auto& [pc, count] : bbv) {
        const auto delta = static_cast<std::int64_t>(pc - previous);
        putVarint(blob, (static_cast<std::uint64_t>(delta) << 1) ^
                            static_cast<std::uint64_t>(delta >> 63));
        putVarint(blob, count);
        previous = pc;
    }
    le::store32(blob.data(), static_cast<std::uint32_t>(bbv.size()));
    le::store32(blob.data() + 4, crc32(blob.data() + 8, blob.size() - 8));
    return blob;
}

BasicBlockVectorCodec::Vector BasicBlockVectorCodec::decode(std::span<const std::uint8_t> blob,
                                                            const std::string& what) {
    if (blob.size() < 8)
        throw badInput(what + ": basic-block vector blob too short (" +
                       std::to_string(blob.size()) + " bytes)");
    const std::uint32_t count = le::load32(blob.data());
    if (crc32(blob.data() + 8, blob.size() - 8) != le::load32(blob.data() + 4))
        throw badInput(what + ": basic-block vector CRC mismatch (the stored bytes are corrupt)");
    // Each entry takes at least two bytes: a count larger than that is damage, not a reason to
    // allocate.
    if (count > (blob.size() - 8) / 2)
        throw badInput(what + ": basic-block vector declares " + std::to_string(count) +
                       " entries in " + std::to_string(blob.size()) + " bytes");
    Vector bbv;
    bbv.reserve(count);
    const std::uint8_t* p = blob.data() + 8;
    const std::uint8_t* end = blob.data() + blob.size();
    std::uint64_t previous = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        std::uint64_t zz = 0;
        std::uint64_t n = 0;
        if (!getVarint(p, end, zz) || !getVarint(p, end, n))
            throw badInput(what + ": basic-block vector entry " + std::to_string(i) +
                           " is truncated");
        const auto delta = static_cast<std::int64_t>(zz >> 1) ^ -static_cast<std::int64_t>(zz & 1);
        previous += static_cast<std::uint64_t>(delta);
        bbv.emplace_back(previous, n);
    }
    if (p != end)
        throw badInput(what + ": basic-block vector has trailing bytes");
    return bbv;
}

} // namespace concorde
