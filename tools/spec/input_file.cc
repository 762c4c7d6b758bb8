// Regular files only, bounded (input_file.h).
#include "tools/spec/input_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace tcsim::spec {
namespace {

std::string kind_of(mode_t m) {
  if (S_ISDIR(m)) return "is a directory";
  if (S_ISFIFO(m)) return "is a FIFO (named pipe)";
  if (S_ISCHR(m)) return "is a character device";
  if (S_ISBLK(m)) return "is a block device";
  if (S_ISSOCK(m)) return "is a socket";
  return "is not a regular file";
}

class Fd {
 public:
  explicit Fd(const std::string& path) {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) {
      const int e = errno;
      if (e == ENOENT) throw InputFileError("does not exist");
      if (e == EACCES) throw InputFileError("cannot be read (permission denied)");
      if (e == ENOTDIR) throw InputFileError("does not exist (a part of the path is not a directory)");
      throw InputFileError(fmt::format("cannot be opened ({})", std::strerror(e)));
    }
  }
  ~Fd() { ::close(fd_); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

  // The size of the regular file behind the descriptor.
  uint64_t regular_size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw InputFileError(fmt::format("cannot be examined ({})", std::strerror(errno)));
    if (!S_ISREG(st.st_mode)) throw InputFileError(kind_of(st.st_mode) + ", not a regular file");
    return static_cast<uint64_t>(st.st_size);
  }

  // Reads up to out.size() bytes at `offset` into `out`, 8 MiB per read; returns the bytes read
  // (fewer if the file shrank meanwhile).
  uint64_t pread_into(uint64_t offset, std::span<std::byte> out) const {
    constexpr uint64_t kChunk = uint64_t{8} << 20;
    uint64_t got = 0;
    while (got < out.size()) {
      const uint64_t n = std::min<uint64_t>(out.size() - got, kChunk);
      const ssize_t r = ::pread(fd_, out.data() + got, n, static_cast<off_t>(offset + got));
      if (r < 0) {
        if (errno == EINTR) continue;
        throw InputFileError(fmt::format("cannot be read ({})", std::strerror(errno)));
      }
      if (r == 0) break;
      got += static_cast<uint64_t>(r);
    }
    return got;
  }

  // Reads up to n bytes (fewer if the file shrank meanwhile).
  std::string read_up_to(uint64_t n) const {
    std::string data(n, '\0');
    uint64_t got = 0;
    while (got < n) {
      const ssize_t r = ::read(fd_, data.data() + got, n - got);
      if (r < 0) {
        if (errno == EINTR) continue;
        throw InputFileError(fmt::format("cannot be read ({})", std::strerror(errno)));
      }
      if (r == 0) break;
      got += static_cast<uint64_t>(r);
    }
    data.resize(got);
    return data;
  }

 private:
  int fd_ = -1;
};

}  // namespace

std::string format_bytes(uint64_t b) {
  if (b >= (uint64_t{1} << 30)) return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1 << 30));
  if (b >= (uint64_t{1} << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1 << 20));
  if (b >= (uint64_t{1} << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(b) / (1 << 10));
  return fmt::format("{} bytes", b);
}

std::string read_regular_file(const std::string& path, uint64_t max_bytes) {
  if (path.empty()) throw InputFileError("is an empty path");
  const Fd fd(path);
  const uint64_t size = fd.regular_size();
  if (size > max_bytes)
    throw InputFileError(fmt::format("is {}, more than the {} limit for this kind of input", format_bytes(size),
                                     format_bytes(max_bytes)));
  std::string data = fd.read_up_to(size);
  // A file that grew while being read (a log being written): refuse rather than read without end.
  if (data.size() == size && !fd.read_up_to(1).empty())
    throw InputFileError("changed size while it was being read");
  return data;
}

void read_regular_file_into(const std::string& path, uint64_t file_size, uint64_t offset, std::span<std::byte> out) {
  if (path.empty()) throw InputFileError("is an empty path");
  const Fd fd(path);
  if (fd.regular_size() != file_size || offset > file_size || out.size() > file_size - offset)
    throw InputFileError("changed size while it was being read");
  if (fd.pread_into(offset, out) != out.size()) throw InputFileError("changed size while it was being read");
  std::byte extra[1];
  if (offset + out.size() == file_size && fd.pread_into(file_size, extra) != 0)
    throw InputFileError("changed size while it was being read");
}

std::string read_regular_file_prefix(const std::string& path, uint64_t max_bytes, uint64_t* file_size) {
  if (path.empty()) throw InputFileError("is an empty path");
  const Fd fd(path);
  const uint64_t size = fd.regular_size();
  if (file_size) *file_size = size;
  return fd.read_up_to(size < max_bytes ? size : max_bytes);
}

}  // namespace tcsim::spec
