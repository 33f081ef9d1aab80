// libFuzzer harness: WarmState::decode, a region's functional warm-up state as stored in a
// .ctrace region table (base64) and in a database row. Encodings 1 and 2 are plain varints and
// encoding 3 is one zstd frame, so the corpus holds real states in both forms.

#include "FuzzSupport.h"
#include "analysis/WarmState.h"

using namespace concorde;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expectOnlyConcordeErrors([&] {
        const auto state = WarmState::fromBytes({data, size}, "fuzzed warm state");
        if (!state)
            return;
        (void)state->replayRecords();
        (void)state->tagePredictor();
        (void)state->targetPredictor();
        // What a database stores back must decode to the same state.
        const WarmState again = WarmState::decode(state->encode(), "re-encoded");
        fuzz::require(again.lines == state->lines && again.recentLoads == state->recentLoads &&
                          again.instructions == state->instructions,
                      "warm state does not survive a round trip");
    });
    return 0;
}
