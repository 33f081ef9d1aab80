#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

namespace concorde {

/// The shape of every region workflow (build-db, label): read the next unit serially and in
/// order, compute it in parallel, commit it serially and in the same order, on `jobs` threads
/// (0 = all cores). At most one unit per thread is in flight, so memory stays bounded.
///
/// `read()` returns the next unit or nullptr to stop (it is where a cancelled job stops taking
/// new work); `compute(Work&)` runs concurrently on different units; `commit(Work&)` is never
/// concurrent with itself. An exception from any stage ends the run and propagates.
template <class Work, class Read, class Compute, class Commit>
void runOrderedPipeline(std::size_t jobs, Read&& read, Compute&& compute, Commit&& commit) {
    tbb::task_arena arena(jobs ? static_cast<int>(jobs) : tbb::task_arena::automatic);
    const auto tokens = static_cast<std::size_t>(std::max(1, arena.max_concurrency()));
    arena.execute([&] {
        tbb::parallel_pipeline(tokens,
                               tbb::make_filter<void, std::shared_ptr<Work>>(
                                   tbb::filter_mode::serial_in_order,
                                   [&](tbb::flow_control& flow) -> std::shared_ptr<Work> {
                                       std::shared_ptr<Work> work = read();
                                       if (!work)
                                           flow.stop();
                                       return work;
                                   }) &
                                   tbb::make_filter<std::shared_ptr<Work>, std::shared_ptr<Work>>(
                                       tbb::filter_mode::parallel,
                                       [&](std::shared_ptr<Work> work) {
                                           compute(*work);
                                           return work;
                                       }) &
                                   tbb::make_filter<std::shared_ptr<Work>, void>(
                                       tbb::filter_mode::serial_in_order,
                                       [&](std::shared_ptr<Work> work) { commit(*work); }));
    });
}

} // namespace concorde
