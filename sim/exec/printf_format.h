// CUDA device printf: how `vprintf(format, args)` turns a format string and an argument buffer
// into text (CUDA C++ Programming Guide, "Formatted Output"; the GPU facts behind each rule, with
// the H200 runs that settled them, are in docs/printf.md). Pure: the caller supplies the memory
// reads, so the rules are tested against host printf without a simulator (tests/sim/printf_test.cc).
//
//   %[flags][width][.precision][size]type
//     flags      # 0 - + ' '          width, precision: digits or '*' (an int argument)
//     size       hh h l ll z j t L    type: c d i o u x X p e E f F g G a A s, and %%
//
// The argument buffer holds the arguments after the C default promotions (char and short as int,
// float as double), each at its natural alignment from the buffer's start: what nvcc packs into
// the local array it passes as `args`. A conversion reads 8 bytes for l, ll, z, j, t integers, for
// every floating-point type and for s and p; 4 bytes otherwise.
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

// The CUDA Programming Guide: "printf() can accept at most 32 arguments in addition to the format
// string. Additional arguments beyond this will be ignored, and the format specifier output as-is."
inline constexpr int kMaxArgs = 32;
// A width or precision above this is not formatted (the call's text would be megabytes): the call
// is dropped and counted, like a call that does not fit the FIFO (docs/printf.md "Bounds").
inline constexpr int64_t kMaxWidth = int64_t{1} << 20;
// The longest %s string read (a string without a NUL within it is cut there).
inline constexpr size_t kMaxString = size_t{1} << 20;

// One conversion specification of a format string.
struct Conversion {
  size_t begin = 0, end = 0;  // fmt[begin] == '%', fmt[end - 1] the type character
  std::string flags;
  bool width_star = false, prec_star = false;
  int64_t width = -1, prec = -1;  // -1: not given (digits; '*' takes an argument instead)
  std::string size;               // "", "hh", "h", "l", "ll", "z", "j", "t", "L"
  char type = 0;                  // 0: the format ends inside the specification
  bool known() const;             // a type CUDA formats (c d i o u x X p e E f F g G a A s)
  uint32_t arg_bytes() const;     // 4 or 8: the bytes the value argument takes in the buffer
};

// A format string split into literal text and conversions (%% is literal '%').
struct Piece {
  std::string literal;   // when !is_conversion
  bool is_conversion = false;
  Conversion conv;
};
std::vector<Piece> parse(std::string_view fmt);

// Where each argument a format consumes lies in the buffer (offset, size), in order: '*' widths
// and precisions (4 bytes each) before their value, at most kMaxArgs in all.
struct ArgSlot {
  uint64_t offset = 0;
  uint32_t size = 0;
};
std::vector<ArgSlot> arg_layout(std::string_view fmt);

struct Result {
  std::string text;
  int32_t ret = 0;        // vprintf's return value (docs/printf.md "Return value")
  uint64_t args = 0;      // arguments consumed
  uint64_t arg_bytes = 0; // bytes of the argument buffer they take (the end of the last one)
  uint64_t string_bytes = 0;  // bytes of %s strings read (their NULs included)
  bool too_long = false;  // a width or precision above kMaxWidth: no text, the call is dropped
};

Result format(std::string_view fmt, Memory& mem);

}  // namespace tcsim::sim::printf_format
