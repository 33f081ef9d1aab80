// tage_training STREAM [--limit N] [--repeat N] [--runs-only]
//
// The branch-predictor side of the functional warm-up (issue 16) on real branches: decodes a
// captured ctrace tool stream (as tool_stream_replay), takes every record as functional
// warm-up and logs its branches as the warm-state builder hands them to its worker; then
// trains TAGE on them branch by branch (predictAndUpdate) and in runs
// (TagePredictor::train, as WarmStateWorker does), alternating, and checks that both end in
// the same state. Prints nanoseconds per branch of each (best of N). --runs-only skips the
// branch-by-branch training (for a profile of the other).
#include "analysis/TagePredictor.h"
#include "analysis/WarmStateBuilder.h"
#include "trace/RecordSink.h"
#include "trace/TracerStreamDecoder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <span>
#include <string>
#include <vector>

using namespace concorde;

namespace {

/// Every record is functional warm-up; the builder logs the branches instead of training.
class BranchLogSink : public RecordSink {
public:
    explicit BranchLogSink(std::vector<BranchEvent>& log) { builder_.logBranches(&log); }
    void beginRegion(std::uint64_t, std::uint64_t) override {}
    void append(const TraceRecord& record) override { builder_.observe(record); }
    std::uint64_t functionalRecordsWanted() const override {
        return std::numeric_limits<std::uint64_t>::max();
    }
    void appendFunctional(std::span<const FunctionalRecord> records,
                          std::span<const MemoryAccess> accesses) override {
        builder_.observe(records, accesses, 0);
    }
    void endRegion() override {}

private:
    WarmStateBuilder builder_;
};

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: tage_training STREAM [--limit N] [--repeat N]\n";
        return 2;
    }
    std::size_t limit = std::numeric_limits<std::size_t>::max();
    int repeat = 3;
    bool runsOnly = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--limit" && i + 1 < argc)
            limit = std::stoull(argv[++i]);
        else if (a == "--repeat" && i + 1 < argc)
            repeat = std::stoi(argv[++i]);
        else if (a == "--runs-only")
            runsOnly = true;
    }
    try {
        std::vector<BranchEvent> events;
        {
            std::ifstream in(argv[1], std::ios::binary);
            if (!in) {
                std::cerr << "tage_training: cannot open " << argv[1] << "\n";
                return 1;
            }
            BranchLogSink sink(events);
            TracerStreamDecoder decoder(sink);
            std::vector<char> chunk(1 << 20);
            while (in && events.size() < limit) {
                in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
                decoder.feed(reinterpret_cast<const unsigned char*>(chunk.data()),
                             static_cast<std::size_t>(in.gcount()));
            }
            if (events.size() > limit)
                events.resize(limit);
        }
        const auto conditional = std::count_if(events.begin(), events.end(), [](const auto& e) {
            return e.kind == BranchKind::DirectConditional;
        });
        double bestOne = 1e30, bestRuns = 1e30;
        for (int round = 0; round < repeat; ++round) {
            TagePredictor oneByOne;
            auto start = std::chrono::steady_clock::now();
            TraceRecord r;
            for (const BranchEvent& e : runsOnly ? std::span<const BranchEvent>() : events) {
                e.toRecord(r);
                oneByOne.predictAndUpdate(r);
            }
            bestOne = std::min(bestOne, seconds(start));
            TagePredictor inRuns;
            start = std::chrono::steady_clock::now();
            constexpr std::size_t kRun = 16384; // WarmStateWorker::kEventsPerTask
            for (std::size_t at = 0; at < events.size(); at += kRun)
                inRuns.train(std::span(events).subspan(at, std::min(kRun, events.size() - at)));
            bestRuns = std::min(bestRuns, seconds(start));
            if (!runsOnly && inRuns.saveState() != oneByOne.saveState()) {
                std::cerr << "tage_training: the two ways of training disagree\n";
                return 1;
            }
        }
        const double n = static_cast<double>(events.size());
        std::printf("%zu branches (%lld conditional): branch by branch %.1f ns/branch, in runs "
                    "%.1f ns/branch (%.2fx)%s\n",
                    events.size(), static_cast<long long>(conditional), 1e9 * bestOne / n,
                    1e9 * bestRuns / n, bestOne / bestRuns, runsOnly ? "" : ", same state");
    } catch (const std::exception& e) {
        std::cerr << "tage_training: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
