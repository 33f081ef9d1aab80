#include "refsim/SimulationResult.h"

namespace concorde {

nlohmann::json SimulationResult::toJson() const {
    return {{"instructions", instructions},
            {"cycles", cycles},
            {"cpi", cpi()},
            {"ipc", cycles ? 1.0 / cpi() : 0.0},
            {"mispredictions", mispredictions},
            {"stall_cycles", stallCycles},
            {"memory", memory},
            {"window_ipc", windowIpc}};
}

} // namespace concorde
