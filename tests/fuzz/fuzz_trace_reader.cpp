// libFuzzer harness: the .ctrace reader (TraceReader) and the warm states in its region table
// (WarmState::ofRegion).
//
// An input that starts with the .ctrace magic is a trace file: it is read as it is, then again
// with every checksum recomputed (header, region table, each block found by its magic) so that
// mutations get past the CRCs to the parsing behind them. Any other input is
// "region-table JSON, NUL, record count (u64), block count (u64), block bytes": the harness
// writes a trace around it (header and compressed region table with valid checksums), which
// lets the fuzzer mutate the region table's text (regions, block index, base64 warm states)
// rather than its zstd frame. tests/fuzz/make-corpus.sh derives both forms from real traces.

#include "FuzzSupport.h"
#include "analysis/WarmState.h"
#include "common/ZstdFrame.h"
#include "trace/TraceFormat.h"
#include "trace/TraceReader.h"

#include <algorithm>
#include <cstring>

namespace tf = concorde::trace_format;
using namespace concorde;

namespace {

/// Recomputes the CRC of every block header and payload found between the file header and
/// `end` by its magic, leaving their other fields as they are.
void fixBlockCrcs(std::vector<std::uint8_t>& file, std::size_t end) {
    std::size_t at = tf::kFileHeaderBytes;
    while (at + tf::kBlockHeaderBytes <= end) {
        if (le::load32(file.data() + at + tf::kBlockMagicOffset) != tf::kBlockMagic) {
            ++at;
            continue;
        }
        const std::uint64_t payload = le::load32(file.data() + at + tf::kBlockCompressedBytes);
        const std::size_t payloadAt = at + tf::kBlockHeaderBytes;
        if (payload <= end - payloadAt)
            fuzz::fixCrc(file, at + tf::kBlockPayloadCrc, payloadAt, payloadAt + payload);
        fuzz::fixCrc(file, at + tf::kBlockHeaderCrc, at, at + tf::kBlockHeaderCrc);
        at = payloadAt + std::min<std::uint64_t>(payload, end - payloadAt);
    }
}

/// The trace with its header, region-table and block checksums recomputed where they fit.
std::vector<std::uint8_t> withValidChecksums(std::vector<std::uint8_t> file) {
    if (file.size() < tf::kFileHeaderBytes)
        return file;
    fuzz::fixCrc(file, tf::kHeaderCrc, 0, tf::kHeaderCrc);
    const std::uint64_t offset = le::load64(file.data() + tf::kHeaderMetadataOffset);
    const std::uint64_t bytes = le::load64(file.data() + tf::kHeaderMetadataBytes);
    std::size_t blocksEnd = file.size();
    if (offset >= tf::kFileHeaderBytes && offset <= file.size() && bytes >= 4 &&
        bytes <= file.size() - offset) {
        fuzz::fixCrc(file, offset + bytes - 4, offset, offset + bytes - 4);
        blocksEnd = offset;
    }
    fixBlockCrcs(file, blocksEnd);
    return file;
}

/// A trace file around a region table given as text: header, the block bytes as they are
/// (checksums fixed), then the table compressed, every checksum valid.
std::vector<std::uint8_t> assembled(std::span<const std::uint8_t> input) {
    const auto nul = std::find(input.begin(), input.end(), std::uint8_t{0});
    const std::span<const std::uint8_t> json(input.begin(), nul);
    std::span<const std::uint8_t> rest =
        nul == input.end() ? std::span<const std::uint8_t>{} : std::span(nul + 1, input.end());
    std::uint64_t counts[2] = {0, 0};
    for (auto& count : counts)
        if (rest.size() >= 8) {
            count = le::load64(rest.data());
            rest = rest.subspan(8);
        }
    std::vector<std::uint8_t> file(tf::kFileHeaderBytes, 0);
    std::memcpy(file.data(), tf::kMagic.data(), tf::kMagic.size());
    le::store32(file.data() + tf::kHeaderVersion, tf::kVersion);
    le::store32(file.data() + tf::kHeaderHeaderBytes, tf::kFileHeaderBytes);
    file.insert(file.end(), rest.begin(), rest.end());
    const std::vector<std::uint8_t> table = zstd::compress(json, 1);
    const std::uint64_t tableOffset = file.size();
    file.insert(file.end(), table.begin(), table.end());
    file.resize(file.size() + 4);
    le::store64(file.data() + tf::kHeaderMetadataOffset, tableOffset);
    le::store64(file.data() + tf::kHeaderMetadataBytes, table.size() + 4);
    le::store64(file.data() + tf::kHeaderRecordCount, counts[0]);
    le::store64(file.data() + tf::kHeaderBlockCount, counts[1]);
    return withValidChecksums(std::move(file));
}

void readTrace(const std::vector<std::uint8_t>& bytes) {
    const std::filesystem::path path = fuzz::scratchPath("input.ctrace");
    fuzz::writeFile(path, bytes);
    std::unique_ptr<TraceReader> reader;
    if (!fuzz::expectOnlyConcordeErrors([&] { reader = std::make_unique<TraceReader>(path); }))
        return;
    const TraceInfo& info = reader->info();
    for (std::size_t i = 0; i < info.regions.size(); ++i)
        fuzz::expectOnlyConcordeErrors([&] {
            if (const auto state = WarmState::ofRegion(info.regions[i], "fuzzed region"))
                (void)state->replayRecords();
        });
    std::vector<TraceRecord> records;
    for (std::size_t i = 0; i < info.regions.size(); ++i)
        fuzz::expectOnlyConcordeErrors([&] { reader->readRegion(i, records); });
    fuzz::expectOnlyConcordeErrors([&] { reader->verifyAll(); });
    fuzz::expectOnlyConcordeErrors([&] {
        reader->seekRecord(info.recordCount / 2);
        TraceRecord record;
        while (reader->next(record)) {
        }
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    if (size >= tf::kMagic.size() && std::memcmp(data, tf::kMagic.data(), tf::kMagic.size()) == 0) {
        const std::vector<std::uint8_t> file(input.begin(), input.end());
        readTrace(file);
        const std::vector<std::uint8_t> fixed = withValidChecksums(file);
        if (fixed != file)
            readTrace(fixed);
    } else {
        readTrace(assembled(input));
    }
    return 0;
}
