#include "io/CompressedFileWriter.h"

#include "common/ConcordeError.h"

#include <lzma.h>
#include <vector>
#include <zlib.h>

namespace concorde {

class CompressedFileWriter::Encoder {
public:
    enum class Kind { Plain, Xz, Gzip };

    explicit Encoder(const std::filesystem::path& path) : file_(path), buffer_(1 << 16) {
        const auto extension = path.extension();
        if (extension == ".xz") {
            kind_ = Kind::Xz;
            if (lzma_easy_encoder(&xz_, 6, LZMA_CHECK_CRC64) != LZMA_OK)
                throw runtimeFailure("cannot initialise the xz encoder");
        } else if (extension == ".gz") {
            kind_ = Kind::Gzip;
            if (deflateInit2(&gz_, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
                throw runtimeFailure("cannot initialise the gzip encoder");
        }
    }

    ~Encoder() {
        if (kind_ == Kind::Xz)
            lzma_end(&xz_);
        if (kind_ == Kind::Gzip)
            deflateEnd(&gz_);
    }

    void write(const unsigned char* data, std::size_t size, bool finish) {
        if (kind_ == Kind::Plain) {
            file_.write(data, size);
            return;
        }
        if (kind_ == Kind::Xz) {
            xz_.next_in = data;
            xz_.avail_in = size;
            for (;;) {
                xz_.next_out = buffer_.data();
                xz_.avail_out = buffer_.size();
                const lzma_ret ret = lzma_code(&xz_, finish ? LZMA_FINISH : LZMA_RUN);
                if (ret != LZMA_OK && ret != LZMA_STREAM_END)
                    throw runtimeFailure("xz compression failed");
                file_.write(buffer_.data(), buffer_.size() - xz_.avail_out);
                if (finish ? ret == LZMA_STREAM_END : xz_.avail_in == 0)
                    return;
            }
        }
        gz_.next_in = const_cast<Bytef*>(data);
        gz_.avail_in = static_cast<uInt>(size);
        for (;;) {
            gz_.next_out = buffer_.data();
            gz_.avail_out = static_cast<uInt>(buffer_.size());
            const int ret = deflate(&gz_, finish ? Z_FINISH : Z_NO_FLUSH);
            if (ret == Z_STREAM_ERROR)
                throw runtimeFailure("gzip compression failed");
            file_.write(buffer_.data(), buffer_.size() - gz_.avail_out);
            if (finish ? ret == Z_STREAM_END : gz_.avail_in == 0)
                return;
        }
    }

    void commit() {
        write(nullptr, 0, true);
        file_.commit();
    }

private:
    AtomicFile file_;
    Kind kind_ = Kind::Plain;
    lzma_stream xz_ = LZMA_STREAM_INIT;
    z_stream gz_{};
    std::vector<unsigned char> buffer_;
};

CompressedFileWriter::CompressedFileWriter(const std::filesystem::path& path)
    : encoder_(std::make_unique<Encoder>(path)) {}

CompressedFileWriter::~CompressedFileWriter() = default;

void CompressedFileWriter::write(const void* data, std::size_t size) {
    encoder_->write(static_cast<const unsigned char*>(data), size, false);
}

void CompressedFileWriter::commit() {
    encoder_->commit();
}

} // namespace concorde
