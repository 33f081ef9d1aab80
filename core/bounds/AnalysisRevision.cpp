#include "AnalysisRevision.h"

namespace concorde {

std::string AnalysisRevision::describe() const {
    return std::string(timedStores ? "timed" : "untimed") + " store-queue series, " +
           (timedLoads ? "timed" : "untimed") + " loads, " +
           (loadQueueThroughCommit ? "load queue through commit" : "loads-only load queue");
}

} // namespace concorde
