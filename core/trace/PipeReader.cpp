#include "trace/PipeReader.h"

#include "common/ConcordeError.h"

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace concorde {

namespace {

struct Chunk {
    unsigned char* bytes = nullptr;
    std::size_t size = 0;
};

/// The chunks' storage: one reservation of as many chunks as can be in use at once, handed out
/// as they are first needed and recycled after. std::make_unique zeroed every fresh chunk on top
/// of faulting its 256 pages in: about 0.4 s of the 6 s of CPU of a functional trace of gzip
/// (issue 16). Pages of an anonymous mapping come zeroed, so nothing is cleared here, and
/// transparent huge pages (where the kernel allows them on request) fault 2 MB at a time.
class ChunkPool {
public:
    /// At most kMaxChunks queued, one being filled, one being consumed.
    static constexpr std::size_t kChunks = PipeReader::kMaxChunks + 2;
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;

    ChunkPool() {
        reservedBytes_ = kChunks * PipeReader::kChunkBytes + kHugePage;
        void* p = ::mmap(nullptr, reservedBytes_, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            throw runtimeFailure(std::string("cannot reserve the pipe's read-ahead buffer: ") +
                                 std::strerror(errno));
        reserved_ = static_cast<unsigned char*>(p);
        const auto address = reinterpret_cast<std::uintptr_t>(reserved_);
        first_ = reserved_ + ((kHugePage - address % kHugePage) % kHugePage);
#ifdef MADV_HUGEPAGE
        (void)::madvise(first_, kChunks * PipeReader::kChunkBytes, MADV_HUGEPAGE);
#endif
    }
    ~ChunkPool() {
        ::munmap(reserved_, reservedBytes_);
    }
    ChunkPool(const ChunkPool&) = delete;
    ChunkPool& operator=(const ChunkPool&) = delete;

    /// A chunk never handed out before; nullptr once all are.
    unsigned char* fresh() {
        if (handedOut_ == kChunks)
            return nullptr;
        return first_ + PipeReader::kChunkBytes * handedOut_++;
    }

private:
    unsigned char* reserved_ = nullptr;
    std::size_t reservedBytes_ = 0;
    unsigned char* first_ = nullptr;
    std::size_t handedOut_ = 0;
};

/// What the reading thread and the consumer share.
class ChunkQueue {
public:
    std::mutex mutex;
    std::condition_variable dataReady; ///< a chunk, the end, or an error for the consumer
    std::condition_variable roomReady; ///< room for the reader, or stop
    std::deque<Chunk> chunks;
    std::vector<unsigned char*> spare; ///< consumed chunks' storage
    ChunkPool pool;                    ///< storage not used yet (only the reader takes from it)
    bool ended = false;
    std::string error; ///< a failed read, after the chunks before it
    bool stop = false; ///< the consumer gave up
    bool consumerWaiting = false;
    bool readerWaiting = false;
};

void readAll(int fd, int stopFd, ChunkQueue& q) {
    unsigned char* bytes = nullptr; // the chunk being filled
    std::size_t filled = 0;
    for (;;) {
        if (!bytes) {
            std::unique_lock lock(q.mutex);
            if (q.chunks.size() >= PipeReader::kMaxChunks) {
                // Wait until the consumer has taken half: one wake-up per many chunks.
                q.readerWaiting = true;
                q.roomReady.wait(
                    lock, [&] { return q.chunks.size() <= PipeReader::kMaxChunks / 2 || q.stop; });
                q.readerWaiting = false;
            }
            if (q.stop)
                return;
            if (!q.spare.empty()) {
                bytes = q.spare.back();
                q.spare.pop_back();
            }
            lock.unlock();
            if (!bytes)
                bytes = q.pool.fresh();
            if (!bytes) { // cannot happen: at most ChunkPool::kChunks are ever in use
                const std::lock_guard relock(q.mutex);
                q.error = "internal error: the pipe reader ran out of chunks";
                q.dataReady.notify_one();
                return;
            }
            filled = 0;
        }
        // Waits for data or for the consumer to give up (a byte on stopFd).
        // With a part-filled chunk, it looks every millisecond whether the consumer ran dry
        // (the tool may write nothing for a while: it fast-forwards between regions).
        pollfd fds[2] = {{fd, POLLIN, 0}, {stopFd, POLLIN, 0}};
        const int ready = ::poll(fds, 2, filled > 0 ? 1 : -1);
        if (ready == 0) {
            const std::lock_guard lock(q.mutex);
            if (q.consumerWaiting) {
                q.chunks.push_back({bytes, filled});
                bytes = nullptr;
                q.dataReady.notify_one();
            }
            continue;
        }
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            const std::lock_guard lock(q.mutex);
            q.error = std::string("waiting for the tracer: ") + std::strerror(errno);
            q.dataReady.notify_one();
            return;
        }
        if (fds[1].revents != 0)
            return;
        const ssize_t got = ::read(fd, bytes + filled, PipeReader::kChunkBytes - filled);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got > 0)
            filled += static_cast<std::size_t>(got);
        const std::lock_guard lock(q.mutex);
        // A chunk goes over full (a pipe read gives as little as a page when the reader is
        // quick), or at once to a consumer that has nothing left, or at the end.
        if (filled > 0 && (filled == PipeReader::kChunkBytes || q.consumerWaiting || got <= 0)) {
            q.chunks.push_back({bytes, filled});
            bytes = nullptr;
        }
        if (got < 0)
            q.error = std::string("reading the tracer: ") + std::strerror(errno);
        else if (got == 0)
            q.ended = true;
        if (q.consumerWaiting && (!q.chunks.empty() || got <= 0))
            q.dataReady.notify_one();
        if (got <= 0)
            return;
    }
}

} // namespace

void PipeReader::drain(int fd, const Consumer& consume) {
    ChunkQueue q;
    int stopPipe[2];
    if (::pipe2(stopPipe, O_CLOEXEC) != 0)
        throw runtimeFailure(std::string("cannot create a pipe: ") + std::strerror(errno));
    std::thread reader([&] { readAll(fd, stopPipe[0], q); });
    const auto stopReader = [&] {
        {
            const std::lock_guard lock(q.mutex);
            q.stop = true;
        }
        q.roomReady.notify_one();
        const unsigned char byte = 0;
        (void)!::write(stopPipe[1], &byte, 1);
        reader.join();
        ::close(stopPipe[0]);
        ::close(stopPipe[1]);
    };
    try {
        for (;;) {
            Chunk chunk;
            {
                std::unique_lock lock(q.mutex);
                if (q.chunks.empty() && !q.ended && q.error.empty()) {
                    q.consumerWaiting = true;
                    q.dataReady.wait(
                        lock, [&] { return !q.chunks.empty() || q.ended || !q.error.empty(); });
                    q.consumerWaiting = false;
                }
                if (q.chunks.empty()) {
                    if (!q.error.empty())
                        throw runtimeFailure(q.error);
                    break; // ended
                }
                chunk = std::move(q.chunks.front());
                q.chunks.pop_front();
                if (q.readerWaiting && q.chunks.size() <= kMaxChunks / 2)
                    q.roomReady.notify_one();
            }
            consume(chunk.bytes, chunk.size);
            const std::lock_guard lock(q.mutex);
            q.spare.push_back(chunk.bytes);
        }
    } catch (...) {
        stopReader();
        throw;
    }
    stopReader();
}

} // namespace concorde
