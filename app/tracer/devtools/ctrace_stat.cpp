// Fast checker for raw ctrace streams (core/trace/TracerProtocol.h). Development tool: the same
// summary and consistency checks as ctrace_decode.py, in C++, streaming, for large traces and for
// reading a pipe while the traced program runs.
//
//   g++ -O2 -std=c++20 -I core/trace -o ctrace_stat app/tracer/devtools/ctrace_stat.cpp
//   ctrace_stat TRACE|-            (exit status 1 when a check fails)
//   ctrace_stat TRACE --dump FILE [--ranges A-B,C-D]
//        also write "index pc addr..." for every record (or those with index in the ranges)
#include "TracerProtocol.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

struct Static {
    uint64_t pc = 0, target = 0;
    uint8_t size = 0, cls = 0, kind = 0, flags = 0, nmem = 0;
    std::vector<uint8_t> memKind;
    bool defined = false;
};

struct Stats {
    uint64_t records = 0, bytes = 0, loads = 0, stores = 0, notPerformed = 0;
    std::array<uint64_t, CTP_CLASS_COUNT> cls{};
    std::array<uint64_t, CTP_BRANCH_COUNT> kind{};
    uint64_t taken = 0, notTaken = 0;
    std::map<uint32_t, uint64_t> frames;
};

std::vector<std::string> errors;
void check(bool ok, const std::string& msg) {
    if (!ok && errors.size() < 1000) errors.push_back(msg);
}

bool readExact(FILE* f, uint8_t* p, size_t n) { return std::fread(p, 1, n, f) == n; }

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: ctrace_stat TRACE|- [--dump FILE [--ranges A-B,...]]\n");
        return 2;
    }
    FILE* dump = nullptr;
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    for (int a = 2; a + 1 < argc; a += 2) {
        if (std::strcmp(argv[a], "--dump") == 0) {
            dump = std::fopen(argv[a + 1], "w");
        } else if (std::strcmp(argv[a], "--ranges") == 0) {
            const char* p = argv[a + 1];
            while (*p) {
                char* e;
                uint64_t lo = std::strtoull(p, &e, 10);
                uint64_t hi = std::strtoull(e + 1, &e, 10);
                ranges.push_back({lo, hi});
                p = *e ? e + 1 : e;
            }
        }
    }
    auto wanted = [&](uint64_t idx) {
        if (ranges.empty()) return true;
        for (auto& r : ranges)
            if (idx >= r.first && idx < r.second) return true;
        return false;
    };
    FILE* f = std::strcmp(argv[1], "-") == 0 ? stdin : std::fopen(argv[1], "rb");
    if (!f) {
        std::perror(argv[1]);
        return 2;
    }
    static char iobuf[1 << 20];
    std::setvbuf(f, iobuf, _IOFBF, sizeof iobuf);
    auto t0 = std::chrono::steady_clock::now();

    uint8_t fixed[CTP_STREAM_HEADER_FIXED];
    if (!readExact(f, fixed, sizeof fixed) || std::memcmp(fixed, CTP_MAGIC, CTP_MAGIC_BYTES) != 0) {
        std::printf("not a ctrace stream\n");
        return 1;
    }
    uint32_t headerBytes = ctp_get_u32(fixed + 12);
    std::vector<uint8_t> rest(headerBytes - CTP_STREAM_HEADER_FIXED);
    readExact(f, rest.data(), rest.size());
    std::string cmd;
    for (size_t i = 0; i < ctp_get_u32(fixed + 60) && i < rest.size(); i++)
        cmd += rest[i] ? char(rest[i]) : ' ';
    std::printf("command: %s\n", cmd.c_str());

    Stats st;
    st.bytes = headerBytes;
    std::vector<Static> statics;
    std::map<uint32_t, std::pair<uint32_t, bool>> last; // tid -> (id of previous record, valid)
    uint32_t tid = 1;
    bool inRegion = false, sawEnd = false;
    uint64_t nextIndex = 0, regionRecords = 0, regionWarmup = 0, regionPlanned = 0;
    std::vector<uint8_t> payload;

    auto resolve = [&](uint32_t prevId, uint64_t nextPc) {
        const Static& s = statics[prevId];
        if (s.kind != CTP_BRANCH_DIRECT_CONDITIONAL || nextPc == 0) return;
        if (nextPc != s.pc + s.size) {
            st.taken++;
            check(nextPc == s.target, "taken conditional branch went to an unexpected pc");
        } else {
            st.notTaken++;
        }
    };
    auto resolveLast = [&](uint64_t nextPc) {
        auto it = last.find(tid);
        if (it != last.end() && it->second.second) resolve(it->second.first, nextPc);
    };

    uint8_t fh[CTP_FRAME_HEADER_BYTES];
    while (readExact(f, fh, sizeof fh)) {
        uint32_t type = ctp_get_u32(fh), len = ctp_get_u32(fh + 4);
        payload.resize(len);
        if (!readExact(f, payload.data(), len)) {
            check(false, "truncated frame");
            break;
        }
        st.bytes += CTP_FRAME_HEADER_BYTES + len;
        st.frames[type]++;
        const uint8_t* p = payload.data();
        const uint8_t* end = p + len;
        switch (type) {
        case CTP_FRAME_STATIC:
            while (p < end) {
                uint32_t id = ctp_get_u32(p);
                if (id >= statics.size()) statics.resize(id + 1);
                Static& s = statics[id];
                check(!s.defined, "id defined twice");
                s.defined = true;
                s.size = p[4];
                s.cls = p[5];
                s.kind = p[6];
                s.flags = p[7];
                s.pc = ctp_get_u64(p + 8);
                s.target = ctp_get_u64(p + 16);
                s.nmem = p[26];
                const uint8_t* m = p + CTP_STATIC_FIXED + p[24] + p[25];
                for (int k = 0; k < s.nmem; k++) s.memKind.push_back(m[4 * k]);
                check(s.cls < CTP_CLASS_COUNT && s.kind < CTP_BRANCH_COUNT, "bad class/kind");
                check((s.cls == CTP_CLASS_BRANCH) == (s.kind != CTP_BRANCH_NONE),
                      "class/branch mismatch");
                p += ctp_static_size(p);
            }
            break;
        case CTP_FRAME_RECORDS: {
            uint64_t first = ctp_get_u64(p);
            uint32_t count = ctp_get_u32(p + 8);
            check(inRegion, "records outside a region");
            check(first == nextIndex, "record index gap");
            p += CTP_RECORDS_PREFIX;
            for (uint32_t i = 0; i < count; i++) {
                uint32_t id = ctp_get_u32(p);
                p += 4;
                if (id >= statics.size() || !statics[id].defined) {
                    check(false, "undefined id");
                    p = end;
                    break;
                }
                const Static& s = statics[id];
                auto it = last.find(tid);
                if (it != last.end() && it->second.second) resolve(it->second.first, s.pc);
                last[tid] = {id, true};
                st.cls[s.cls]++;
                st.kind[s.kind]++;
                for (int k = 0; k < s.nmem; k++) {
                    uint64_t a = ctp_get_u64(p + 8 * k);
                    if (a == 0) st.notPerformed++;
                    else if (s.memKind[k] == CTP_MEM_LOAD) st.loads++;
                    else st.stores++;
                }
                if (dump && wanted(first + i)) {
                    std::fprintf(dump, "%llu %llx", (unsigned long long)(first + i),
                                 (unsigned long long)s.pc);
                    for (int k = 0; k < s.nmem; k++)
                        std::fprintf(dump, " %llx", (unsigned long long)ctp_get_u64(p + 8 * k));
                    std::fputc('\n', dump);
                }
                p += 8 * s.nmem;
            }
            check(p == end, "RECORDS frame length mismatch");
            st.records += count;
            regionRecords += count;
            nextIndex = first + count;
            break;
        }
        case CTP_FRAME_REGION_BEGIN: {
            check(!inRegion, "nested REGION_BEGIN");
            inRegion = true;
            regionRecords = 0;
            regionWarmup = ctp_get_u64(p + 24);
            regionPlanned = ctp_get_u64(p + 32);
            nextIndex = ctp_get_u64(p + 8);
            last.clear();
            std::printf("region %u: warm-up from %llu, measured from %llu, warm-up %llu\n",
                        ctp_get_u32(p), (unsigned long long)ctp_get_u64(p + 8),
                        (unsigned long long)ctp_get_u64(p + 16),
                        (unsigned long long)regionWarmup);
            break;
        }
        case CTP_FRAME_REGION_END: {
            uint32_t flags = ctp_get_u32(p + 4);
            uint64_t w = ctp_get_u64(p + 8), m = ctp_get_u64(p + 16), next = ctp_get_u64(p + 24);
            uint32_t nb = ctp_get_u32(p + 32);
            uint64_t bbvTotal = 0;
            for (uint32_t k = 0; k < nb; k++) bbvTotal += ctp_get_u64(p + 40 + 16 * k + 8);
            check(inRegion, "REGION_END without begin");
            check(regionRecords == w + m, "region record count mismatch");
            check((flags & CTP_RF_TRUNCATED) || w == regionWarmup, "warm-up count mismatch");
            check((flags & CTP_RF_TRUNCATED) || regionPlanned == 0 || m == regionPlanned,
                  "measured count mismatch");
            resolveLast(next);
            std::printf("  end: %llu warm-up + %llu measured%s, next_pc %#llx, BBV %u blocks / "
                        "%llu instructions\n",
                        (unsigned long long)w, (unsigned long long)m,
                        (flags & CTP_RF_TRUNCATED) ? " (truncated)" : "",
                        (unsigned long long)next, nb, (unsigned long long)bbvTotal);
            inRegion = false;
            last.clear();
            break;
        }
        case CTP_FRAME_THREAD:
            tid = ctp_get_u32(p);
            break;
        case CTP_FRAME_DISCONTINUITY:
            resolveLast(ctp_get_u64(p + 8));
            last.erase(tid);
            break;
        case CTP_FRAME_END:
            sawEnd = true;
            std::printf("END: %llu instructions executed, exit code %d, %u regions\n",
                        (unsigned long long)ctp_get_u64(p), (int)ctp_get_u32(p + 8),
                        ctp_get_u32(p + 12));
            break;
        default:
            break;
        }
    }
    check(sawEnd, "no END frame");
    if (dump) std::fclose(dump);
    double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    static const char* cn[] = {"int-alu", "int-mul", "int-div", "fp-add", "fp-mul", "fp-div",
                               "simd",    "load",    "store",   "branch", "fence",  "nop"};
    static const char* kn[] = {"none", "jmp", "jcc", "indirect", "call", "ret"};
    std::printf("records %llu, static ids %zu, %llu bytes (%.2f B/record), read in %.2f s\n",
                (unsigned long long)st.records, statics.size(), (unsigned long long)st.bytes,
                double(st.bytes) / double(st.records ? st.records : 1), secs);
    std::printf("classes:");
    for (size_t c = 0; c < CTP_CLASS_COUNT; c++)
        if (st.cls[c]) std::printf(" %s %.2f%%", cn[c], 100.0 * st.cls[c] / st.records);
    std::printf("\nbranches:");
    for (size_t k = 1; k < CTP_BRANCH_COUNT; k++) std::printf(" %s %llu", kn[k], (unsigned long long)st.kind[k]);
    std::printf("\nconditional: taken %llu, not taken %llu\n", (unsigned long long)st.taken,
                (unsigned long long)st.notTaken);
    std::printf("memory: %llu loads, %llu stores, %llu not performed\n",
                (unsigned long long)st.loads, (unsigned long long)st.stores,
                (unsigned long long)st.notPerformed);
    for (size_t i = 0; i < errors.size() && i < 20; i++) std::printf("CHECK FAILED: %s\n", errors[i].c_str());
    std::printf("checks: %s\n", errors.empty() ? "OK" : "FAILED");
    return errors.empty() ? 0 : 1;
}
