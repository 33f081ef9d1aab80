// libFuzzer harness: RecordBlobCodec::decode, the region records stored in a database
// (`region_records.data`). An input is read as it is, then with its CRC recomputed; an input
// `'!' header records` is first given a zstd frame of those encoded records (see
// fuzz::framedPayload), so that the record decoder behind the frame is fuzzed too.

#include "FuzzSupport.h"
#include "store/RecordBlobCodec.h"

using namespace concorde;

namespace {

constexpr std::size_t kHeader = RecordBlobCodec::kHeaderSize;

void decode(std::vector<std::uint8_t> blob, bool fixChecksum) {
    if (fixChecksum && blob.size() >= kHeader)
        fuzz::fixCrc(blob, 20, kHeader, blob.size(), crc32(blob.data(), 20));
    fuzz::expectOnlyConcordeErrors([&] {
        const std::vector<TraceRecord> records = RecordBlobCodec::decode(blob, "fuzzed blob");
        fuzz::require(records.size() == le::load32(blob.data() + 8),
                      "record count differs from the header");
        // What the database writes back must decode to the same records.
        fuzz::require(RecordBlobCodec::decode(RecordBlobCodec::encode(records), "re-encoded") ==
                          records,
                      "records do not survive a round trip");
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    if (auto blob = fuzz::framedPayload(input, kHeader, 12, 16)) {
        decode(std::move(*blob), true);
        return 0;
    }
    decode({input.begin(), input.end()}, false);
    decode({input.begin(), input.end()}, true);
    return 0;
}
