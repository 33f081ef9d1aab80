#include "common/AtomicFile.h"

#include "common/ConcordeError.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace concorde {

AtomicFile::AtomicFile(std::filesystem::path destination) : destination_(std::move(destination)) {
    // Renaming over a device, FIFO or directory would replace it (e.g. -o /dev/null run as
    // root would turn /dev/null into a regular file): only regular files are outputs.
    std::error_code ec;
    const auto status = std::filesystem::symlink_status(destination_, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        throw badInput(destination_.string() +
                       " exists and is not a regular file; refusing to replace it");
    temporary_ = destination_;
    temporary_ += ".tmp-" + std::to_string(::getpid());
    file_ = std::fopen(temporary_.c_str(), "wb");
    if (!file_)
        throw runtimeFailure("cannot create " + temporary_.string() + ": " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
    discard();
}

void AtomicFile::fail(const std::string& what) {
    const int savedErrno = errno;
    discard();
    throw runtimeFailure("cannot " + what + " " + destination_.string() + ": " +
                         std::strerror(savedErrno));
}

void AtomicFile::write(const void* data, std::size_t size) {
    if (!file_)
        throw runtimeFailure("write to closed file " + destination_.string());
    if (size > 0 && std::fwrite(data, 1, size, file_) != size)
        fail("write");
    position_ += size;
}

void AtomicFile::writeAt(std::uint64_t offset, const void* data, std::size_t size) {
    if (!file_)
        throw runtimeFailure("write to closed file " + destination_.string());
    if (std::fseek(file_, static_cast<long>(offset), SEEK_SET) != 0)
        fail("seek in");
    if (std::fwrite(data, 1, size, file_) != size)
        fail("write");
    if (std::fseek(file_, 0, SEEK_END) != 0)
        fail("seek in");
}

void AtomicFile::commit() {
    if (!file_)
        throw runtimeFailure("commit of closed file " + destination_.string());
    if (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0)
        fail("flush");
    if (std::fclose(file_) != 0) {
        file_ = nullptr;
        fail("close");
    }
    file_ = nullptr;
    std::error_code ec;
    std::filesystem::rename(temporary_, destination_, ec);
    if (ec) {
        std::filesystem::remove(temporary_);
        throw runtimeFailure("cannot rename " + temporary_.string() + " to " +
                             destination_.string() + ": " + ec.message());
    }
}

void AtomicFile::discard() {
    if (file_) {
        std::fclose(file_);
        file_ = nullptr;
        std::error_code ignored;
        std::filesystem::remove(temporary_, ignored);
    }
}

} // namespace concorde
