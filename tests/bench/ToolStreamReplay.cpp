// tool_stream_replay STREAM OUT.ctrace WARMUP FUNCTIONAL [--general] [--repeat N]
//
// Replays a captured ctrace tool stream (valgrind --tool=ctrace --ctrace-out=STREAM ...)
// through what `concorde trace` puts behind the pipe: the stream decoder, the functional
// warm-up sink (FUNCTIONAL > 0) and the .ctrace writer. Without Valgrind running, this is the
// consumer's share of the tracing cost (issue 16), and the same stream decoded twice gives a
// byte-identical comparison of two decoders. --general keeps functional records off the
// decoder's compact fast path (every record becomes a TraceRecord), for an A/B in one binary.
// Prints the best CPU seconds of N runs (the whole process, and the decoding thread alone) and
// the records written.
#include "analysis/FunctionalWarmupSink.h"
#include "trace/TraceWriter.h"
#include "trace/TraceWriterSink.h"
#include "trace/TracerStreamDecoder.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <time.h>
#include <vector>

using namespace concorde;

namespace {

/// Forwards to `inner` but never asks for compact records (the decoder's general path).
class GeneralPathSink : public RecordSink {
public:
    explicit GeneralPathSink(RecordSink& inner) : inner_(inner) {}
    void beginRegion(std::uint64_t programStart, std::uint64_t warmup) override {
        inner_.beginRegion(programStart, warmup);
    }
    void append(const TraceRecord& record) override { inner_.append(record); }
    void setBasicBlockVector(std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv) override {
        inner_.setBasicBlockVector(std::move(bbv));
    }
    void setWarmState(std::uint64_t functionalWarmup, std::vector<std::uint8_t> state) override {
        inner_.setWarmState(functionalWarmup, std::move(state));
    }
    void endRegion() override { inner_.endRegion(); }

private:
    RecordSink& inner_;
};

double cpuSeconds() {
    return double(std::clock()) / CLOCKS_PER_SEC;
}

/// CPU time of the calling thread alone: the decoder and the warm-state builder's line table,
/// without the predictor thread (WarmStateWorker).
double threadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::cerr << "usage: tool_stream_replay STREAM OUT.ctrace WARMUP FUNCTIONAL [--general] "
                     "[--repeat N]\n";
        return 2;
    }
    const std::string streamPath = argv[1];
    const std::string outPath = argv[2];
    const std::uint64_t warmup = std::stoull(argv[3]);
    const std::uint64_t functional = std::stoull(argv[4]);
    bool general = false;
    int repeat = 1;
    for (int i = 5; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--general")
            general = true;
        else if (a == "--repeat" && i + 1 < argc)
            repeat = std::stoi(argv[++i]);
    }
    try {
        double best = 1e30;
        double bestThread = 1e30;
        std::uint64_t written = 0;
        for (int run = 0; run < repeat; ++run) {
            std::ifstream in(streamPath, std::ios::binary);
            if (!in) {
                std::cerr << "tool_stream_replay: cannot open " << streamPath << "\n";
                return 1;
            }
            const double start = cpuSeconds();
            const double threadStart = threadCpuSeconds();
            TraceWriter writer(outPath, TraceInfo{});
            TraceWriterSink writerSink(writer);
            std::optional<FunctionalWarmupSink> warming;
            if (functional > 0)
                warming.emplace(writerSink, warmup, functional);
            RecordSink& front = warming ? static_cast<RecordSink&>(*warming) : writerSink;
            GeneralPathSink generalPath(front);
            TracerStreamDecoder decoder(general ? static_cast<RecordSink&>(generalPath) : front);
            std::vector<char> chunk(1 << 20); // what a pipe read gives, roughly
            while (in) {
                in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
                decoder.feed(reinterpret_cast<const unsigned char*>(chunk.data()),
                             static_cast<std::size_t>(in.gcount()));
            }
            decoder.finish();
            writer.finish();
            best = std::min(best, cpuSeconds() - start);
            bestThread = std::min(bestThread, threadCpuSeconds() - threadStart);
            written = decoder.recordsWritten();
        }
        std::printf("%s path: %.3f s CPU (best of %d; decoding thread %.3f s), %llu records "
                    "decoded\n",
                    general ? "general" : "compact", best, repeat, bestThread,
                    static_cast<unsigned long long>(written));
    } catch (const std::exception& e) {
        std::cerr << "tool_stream_replay: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
