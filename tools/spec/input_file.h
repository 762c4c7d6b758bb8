// Reading the files a user names (launch specs, PTX, .npy inits, manifests, mma-dot cases): only
// regular files, never more than a stated size. A FIFO, a character device (/dev/zero,
// /dev/urandom), a directory or a socket is refused with one line instead of blocking or being read
// until memory runs out. The one place for safe file reading (docs/hostile_input.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace tcsim::spec {

// Size limits of the inputs (bytes). A larger file is an error naming the limit.
inline constexpr uint64_t kMaxSpecBytes = uint64_t{64} << 20;       // a launch spec or manifest
inline constexpr uint64_t kMaxPtxBytes = uint64_t{512} << 20;       // a PTX module
inline constexpr uint64_t kMaxTextInputBytes = uint64_t{64} << 20;  // other text inputs (mma-dot cases)

// Why a file could not be read: what() is the reason without the path ("is a FIFO (named pipe), not a
// regular file", "does not exist", "is 3.0 GiB, more than the 512 MiB limit"), so that callers can
// say which spec field named it.
struct InputFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The whole content of the regular file `path` (symbolic links followed), at most `max_bytes`.
// Opened without blocking (a FIFO cannot hang the open), checked with fstat on the open descriptor.
// Throws InputFileError.
std::string read_regular_file(const std::string& path, uint64_t max_bytes);

// The first min(size, max_bytes) bytes of the regular file `path` (a header), and its size.
std::string read_regular_file_prefix(const std::string& path, uint64_t max_bytes, uint64_t* file_size);

// Reads bytes [offset, offset + out.size()) of the regular file `path` straight into `out`, in
// bounded chunks (no copy of the file in host memory), after checking that the file is still
// `file_size` bytes long (the size a header was judged by); throws InputFileError when it is not,
// or when it changes while being read.
void read_regular_file_into(const std::string& path, uint64_t file_size, uint64_t offset, std::span<std::byte> out);

// "1.5 GiB", "512 MiB", "300 bytes": a byte count for messages.
std::string format_bytes(uint64_t bytes);

}  // namespace tcsim::spec
