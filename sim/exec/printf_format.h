// CUDA device printf: how `vprintf(format, args)` turns a format string and an argument buffer
// into text, in the three steps the H200 shows (docs/printf.md has every rule with the run that
// settled it). Pure: the caller supplies the memory reads, so the rules are tested without a
// simulator (tests/sim/printf_test.cc).
//
// 1. The device (vprintf on the GPU) scans the format for conversions in its grammar
//        %[flags][width][.precision][size]type    flags # 0 - + ' '   width digits or '*'
//        precision digits only                    size h l ll         type c d i o u x X p e E f F g G a A s
//    and copies their arguments from the buffer — each at its natural alignment as nvcc packs them
//    (4 bytes for c d i o u x X without l/ll and for a '*' width, 8 for l/ll, every floating-point
//    type, s and p) — into one 8-byte slot each, at most 32; %s copies the string. vprintf returns
//    the number of slots (-1 for a NULL format).
// 2. The host (the CUDA driver, when the context synchronises) scans the format again in its own
//    grammar — the device's plus the size hh — and gives its k-th conversion slot k (k and k+1 with
//    a '*' width). A slot past the device's last is the record's next bytes: the format string the
//    record carries after its slots, 8 bytes per slot.
// 3. The host formats each segment — the text from the previous conversion's end through this
//    conversion — with the host C library's printf and this conversion's slot values, and writes the
//    text after the last conversion as it is. Specifications in a segment that the host does not
//    count but the C library formats (%zd, %.*f, ...) read values nobody passed: uninitialised
//    registers on the GPU's host, 0 here; `undefined` says so.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tcsim::sim::printf_format {

// Memory the formatter reads through; each call throws (the simulator's SimFault) on a bad access.
class Memory {
 public:
  virtual ~Memory() = default;
  // `size` (4 or 8) bytes of the argument buffer at byte `offset` from its start.
  virtual void read_arg(uint64_t offset, void* dst, uint32_t size) = 0;
  // The bytes of the string at device address `addr` before its NUL, at most `max` of them.
  virtual std::string read_string(uint64_t addr, size_t max) = 0;
};

// CUDA C++ Programming Guide, "Formatted Output": at most 32 arguments besides the format.
inline constexpr int kMaxArgs = 32;
// A width or precision above this is not formatted (the call's text would be megabytes): the call
// is dropped and counted, like a call that does not fit the FIFO (docs/printf.md "Bounds").
inline constexpr int64_t kMaxWidth = int64_t{1} << 20;
// The longest %s string read (a string without a NUL within it is cut there).
inline constexpr size_t kMaxString = size_t{1} << 20;

// The grammars of the three readers of a format (see above).
enum class Grammar : uint8_t {
  Device,  // vprintf on the GPU
  Host,    // the CUDA driver on the host
  Libc,    // the host C library's printf (glibc's specifications)
};

// One specification of a format string, as one grammar reads it.
struct Conversion {
  size_t begin = 0, end = 0;  // fmt[begin] == '%'; end: one past its last character
  std::string flags;
  bool width_star = false, prec_star = false;
  int64_t width = -1, prec = -1;  // -1: not given
  std::string_view size;          // "", "hh", "h", "l", "ll", and for Libc "q", "L", "j", "z", "Z", "t"
  char type = 0;
  bool valid = false;             // a conversion of its grammar; else [begin, end) is not one
  uint32_t value_bytes() const;   // device: bytes of the value argument in the buffer (4 or 8)
};

// The conversions of `fmt` in grammar `g` ("%%" is text, as is every invalid specification).
std::vector<Conversion> conversions(std::string_view fmt, Grammar g);

struct Result {
  std::string text;
  int32_t ret = 0;             // vprintf's return value: the device's argument count
  uint64_t slots = 0;          // the device's slots (== ret)
  uint64_t arg_bytes = 0;      // bytes of the argument buffer the device read (the end of its last)
  uint64_t string_bytes = 0;   // bytes of %s strings copied (their NULs included)
  bool too_long = false;       // a width or precision above kMaxWidth: no text, the call is dropped
  // What the GPU leaves undefined or to the host's C library in this call, one line each (the text
  // tcsim prints there is deterministic, the GPU's is not): for a checker report.
  std::vector<std::string> undefined;
};

Result format(std::string_view fmt, Memory& mem);

}  // namespace tcsim::sim::printf_format
