#include "explore/LoadInParallel.h"

#include "store/FeatureDatabase.h"

#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace concorde {

void loadInParallel(const std::filesystem::path& database, std::size_t count, const JobControl& job,
                    const std::string& what,
                    const std::function<void(std::size_t, FeatureDatabase&)>& load) {
    tbb::enumerable_thread_specific<std::unique_ptr<FeatureDatabase>> connections;
    std::mutex failureMutex;
    std::atomic<std::size_t> done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    tbb::parallel_for(std::size_t(0), count, std::size_t(1), [&](std::size_t index) {
        if (failed || job.cancelled())
            return;
        try {
            auto& connection = connections.local();
            if (!connection)
                connection =
                    std::make_unique<FeatureDatabase>(FeatureDatabase::openReadOnly(database));
            load(index, *connection);
        } catch (...) {
            std::lock_guard lock(failureMutex);
            if (!failure)
                failure = std::current_exception();
            failed = true;
            return;
        }
        job.report(++done, count);
    });
    if (failure)
        std::rethrow_exception(failure);
    job.throwIfCancelled(what);
}

} // namespace concorde
