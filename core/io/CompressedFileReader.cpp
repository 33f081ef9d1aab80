#include "io/CompressedFileReader.h"

#include "common/ConcordeError.h"

#include <cerrno>
#include <cstring>
#include <lzma.h>
#include <zlib.h>

namespace concorde {

namespace {
constexpr std::size_t kChunk = 1 << 16;
}

/// The three ways of turning file bytes into data bytes behind one small interface.
class CompressedFileReader::Decoder {
public:
    enum class Kind { Plain, Xz, Gzip };

    Decoder(const std::filesystem::path& path) : path_(path) {
        file_ = std::fopen(path.c_str(), "rb");
        if (!file_)
            throw badInput(path.string() + ": cannot open: " + std::strerror(errno));
        unsigned char magic[6] = {};
        const std::size_t got = std::fread(magic, 1, sizeof magic, file_);
        std::rewind(file_);
        static constexpr unsigned char kXz[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
        if (got == 6 && std::memcmp(magic, kXz, 6) == 0) {
            kind_ = Kind::Xz;
            if (lzma_stream_decoder(&xz_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
                throw runtimeFailure("cannot initialise the xz decoder");
        } else if (got >= 2 && magic[0] == 0x1F && magic[1] == 0x8B) {
            kind_ = Kind::Gzip;
            // 15 + 32: zlib detects the gzip wrapper itself.
            if (inflateInit2(&gz_, 15 + 32) != Z_OK)
                throw runtimeFailure("cannot initialise the gzip decoder");
        }
        input_.resize(kChunk);
    }

    ~Decoder() {
        if (kind_ == Kind::Xz)
            lzma_end(&xz_);
        if (kind_ == Kind::Gzip)
            inflateEnd(&gz_);
        std::fclose(file_);
    }

    std::size_t read(unsigned char* out, std::size_t size) {
        switch (kind_) {
        case Kind::Plain:
            return std::fread(out, 1, size, file_);
        case Kind::Xz:
            return readXz(out, size);
        case Kind::Gzip:
            return readGzip(out, size);
        }
        return 0;
    }

private:
    bool refill(const unsigned char*& next, std::size_t& available) {
        if (available > 0 || eof_)
            return available > 0;
        available = std::fread(input_.data(), 1, input_.size(), file_);
        next = input_.data();
        if (available == 0)
            eof_ = true;
        return available > 0;
    }

    std::size_t readXz(unsigned char* out, std::size_t size) {
        xz_.next_out = out;
        xz_.avail_out = size;
        while (xz_.avail_out > 0 && !finished_) {
            if (xz_.avail_in == 0 && !eof_) {
                const unsigned char* next = nullptr;
                std::size_t available = 0;
                refill(next, available);
                xz_.next_in = next;
                xz_.avail_in = available;
            }
            const lzma_ret ret = lzma_code(&xz_, eof_ ? LZMA_FINISH : LZMA_RUN);
            if (ret == LZMA_STREAM_END) {
                finished_ = true;
            } else if (ret != LZMA_OK) {
                throw badInput(path_.string() + ": corrupt xz data (lzma error " +
                               std::to_string(ret) + ")");
            } else if (eof_ && xz_.avail_in == 0 && xz_.avail_out > 0) {
                throw badInput(path_.string() + ": xz data ends early (truncated file)");
            }
        }
        return size - xz_.avail_out;
    }

    std::size_t readGzip(unsigned char* out, std::size_t size) {
        gz_.next_out = out;
        gz_.avail_out = static_cast<uInt>(size);
        while (gz_.avail_out > 0 && !finished_) {
            if (gz_.avail_in == 0) {
                const unsigned char* next = nullptr;
                std::size_t available = 0;
                if (!refill(next, available))
                    throw badInput(path_.string() + ": gzip data ends early (truncated file)");
                gz_.next_in = const_cast<Bytef*>(next);
                gz_.avail_in = static_cast<uInt>(available);
            }
            const int ret = inflate(&gz_, Z_NO_FLUSH);
            if (ret == Z_STREAM_END) {
                finished_ = true;
            } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
                throw badInput(path_.string() + ": corrupt gzip data (zlib error " +
                               std::to_string(ret) + ")");
            }
        }
        return size - gz_.avail_out;
    }

    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
    Kind kind_ = Kind::Plain;
    lzma_stream xz_ = LZMA_STREAM_INIT;
    z_stream gz_{};
    std::vector<unsigned char> input_;
    bool eof_ = false;
    bool finished_ = false;
};

CompressedFileReader::CompressedFileReader(const std::filesystem::path& path)
    : path_(path), decoder_(std::make_unique<Decoder>(path)) {}

CompressedFileReader::~CompressedFileReader() = default;

std::size_t CompressedFileReader::read(void* buffer, std::size_t size) {
    const std::size_t got = decoder_->read(static_cast<unsigned char*>(buffer), size);
    position_ += got;
    return got;
}

bool CompressedFileReader::readExactly(void* buffer, std::size_t size) {
    auto* out = static_cast<unsigned char*>(buffer);
    std::size_t total = 0;
    while (total < size) {
        const std::size_t got = read(out + total, size - total);
        if (got == 0)
            break;
        total += got;
    }
    if (total == 0)
        return false;
    if (total < size)
        throw badInput(path_.string() + ": data ends part-way through a record (at byte " +
                       std::to_string(position_) + ")");
    return true;
}

} // namespace concorde
