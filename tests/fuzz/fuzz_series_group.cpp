// libFuzzer harness: SeriesGroupCodec (decode and peekShape), the per-window series groups
// stored in a database (`series.data`). An input is read as it is, then with its CRC recomputed;
// an input `'!' header payload` is first given a zstd frame of that payload (see
// fuzz::framedPayload), so that the mode/reference/plane decoding behind the frame is fuzzed.

#include "FuzzSupport.h"
#include "store/SeriesGroupCodec.h"

using namespace concorde;

namespace {

constexpr std::size_t kHeader = SeriesGroupCodec::kHeaderSize;

void decode(std::vector<std::uint8_t> blob, bool fixChecksum) {
    if (fixChecksum && blob.size() >= kHeader)
        fuzz::fixCrc(blob, 28, kHeader, blob.size(), crc32(blob.data(), 28));
    fuzz::expectOnlyConcordeErrors([&] {
        const SeriesMatrix shape = SeriesGroupCodec::peekShape(blob, "fuzzed group");
        const SeriesMatrix series = SeriesGroupCodec::decode(blob, "fuzzed group");
        fuzz::require(series.count == shape.count && series.windows == shape.windows,
                      "decode and peekShape disagree on the shape");
        fuzz::require(series.values.size() == std::size_t{series.count} * series.windows,
                      "values do not fill count x windows");
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    if (auto blob = fuzz::framedPayload(input, kHeader, 20, 24)) {
        decode(std::move(*blob), true);
        return 0;
    }
    decode({input.begin(), input.end()}, false);
    decode({input.begin(), input.end()}, true);
    return 0;
}
