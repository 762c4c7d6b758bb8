// A parsed launch spec, version 1 (shared/LAUNCH_SPEC.md; docs/launch_spec.md documents the
// tcsim-specific details: defaults, init algorithms, extensions). Parsing checks everything that
// does not need the PTX (types, ranges, names, init forms against their dtype, .npy headers);
// the runner (runner.h) checks the rest against the kernel's .entry and the module's symbols.
// Every error is a SpecError "FILE: JSON.PATH: what is wrong (what would be legal)".
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/spec/spec_dtype.h"
#include "tools/spec/tensor_map_spec.h"

namespace tcsim::spec {

// A JSON number kept exactly as written: integers are not rounded through a double.
struct Number {
  enum class Kind : uint8_t { Signed, Unsigned, Real } kind = Kind::Unsigned;
  int64_t s = 0;   // Kind::Signed (negative integers)
  uint64_t u = 0;  // Kind::Unsigned (non-negative integers)
  double d = 0;    // Kind::Real (also +-inf / NaN from the strings "inf", "-inf", "nan")

  static Number of(double v) { return {Kind::Real, 0, 0, v}; }
  static Number of_int(int64_t v) {
    return v < 0 ? Number{Kind::Signed, v, 0, 0} : Number{Kind::Unsigned, 0, static_cast<uint64_t>(v), 0};
  }
  double as_double() const;
  bool is_integral() const;  // an integer, or a Real with an integral finite value
  std::string to_string() const;
};

// Uninitialised (tcsim extension, buffers only): allocated and never written by the host, like a
// cudaMalloc without a copy or memset (docs/launch_spec.md).
enum class InitKind : uint8_t { Fill, File, Random, Iota, Uninitialised };
// Integers: integers drawn uniformly from [low, high] (inclusive), each stored exactly in the
// buffer's dtype (kernels/tcgen05/README.md: exact-input specs whose every product and sum is
// representable; an extension of LAUNCH_SPEC.md).
enum class RandomDist : uint8_t { Uniform, Normal, Bits, Integers };

struct InitSpec {
  InitKind kind = InitKind::Fill;
  // fill
  std::optional<uint64_t> fill_bits;  // "0x..." raw bits
  Number fill;                        // otherwise
  // file
  std::string file;       // as written in the spec
  std::string file_path;  // resolved against the spec's directory
  // random
  uint64_t seed = 0;
  RandomDist dist = RandomDist::Uniform;
  Number low = Number::of_int(0), high = Number::of_int(1);  // uniform, integers
  double mean = 0, stddev = 1;                               // normal
  // iota
  Number start = Number::of_int(0), step = Number::of_int(1);

  // Where it was written, for errors found later (symbols are checked once their size is known).
  std::string spec_file;
  std::string json_path;
};

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

struct BufferSpec {
  std::string name;
  SpecDType dtype = SpecDType::U8;
  std::vector<uint64_t> shape;  // row-major, outermost first
  InitSpec init;

  uint64_t count() const;
  uint64_t bytes() const { return count() * elem_bytes(dtype); }
};

struct SymbolSpec {
  std::string name;
  SpecDType dtype = SpecDType::U8;  // how `init` values are read; default u8 (bytes)
  bool dtype_given = false;
  InitSpec init;
};

// The argument forms (LAUNCH_SPEC.md "args"): a device pointer, a whole CUtensorMap, a scalar, raw
// bytes, or a by-value aggregate whose fields are any of these at byte offsets (nesting allowed).
enum class ArgKind : uint8_t { Buffer, TensorMap, Scalar, Bytes, Struct };

// Kernel parameters hold at most 32764 bytes (CUDA 12.1 and later on compute capability 7.0+,
// CUDA C++ Programming Guide "Function Parameters"); no argument or field may be larger.
inline constexpr uint32_t kMaxParamBytes = 32764;

struct ArgSpec {
  ArgKind kind = ArgKind::Scalar;
  std::string name;               // buffer or tensor map
  uint64_t offset_bytes = 0;      // buffer
  SpecDType scalar = SpecDType::U32;
  uint64_t scalar_bits = 0;       // the scalar's bytes, little-endian, in the low size() bytes
  std::vector<uint8_t> bytes;     // Bytes: in memory order
  uint32_t struct_size = 0;       // Struct: N, the aggregate's size in bytes
  std::vector<ArgSpec> fields;    // Struct: the fields in file order, each with its field_offset
  uint32_t field_offset = 0;      // this argument as a struct field: its "offset" in the aggregate
  std::string json_path;          // where it was written ("args[2]", "args[2].struct.fields[1]")

  uint32_t size() const;          // bytes: 8, 128, the scalar's size, the byte count, or N
  // Natural alignment: 8 for a pointer, 64 for a tensor map (cuda.h declares CUtensorMap
  // alignas(64)), the size for a scalar, 1 for bytes, the largest field's for a struct (as a C
  // compiler aligns an aggregate).
  uint32_t align() const;
  std::string describe() const;   // {"buffer": "C"}, {"u32": 0x400}, ... for messages
};

struct LaunchSpec {
  std::string path;      // the spec file as given
  std::string dir;       // its directory: relative paths resolve against it
  std::string ptx;       // as written
  std::string ptx_path;  // resolved
  std::string kernel;
  std::optional<std::string> arch;  // absent: the PTX .target
  Dim3 grid, block, cluster;
  bool cluster_given = false;  // "cluster" present in the file (hardware: explicit cluster launch)
  uint32_t dynamic_smem_bytes = 0;
  // The device printf FIFO's size for the launch (tcsim extension; tcsim-hw sets
  // CU_LIMIT_PRINTF_FIFO_SIZE to it, which the H200's driver raises to at least 512 KiB, as tcsim
  // does). Absent: the device's default (docs/printf.md "FIFO").
  std::optional<uint64_t> printf_fifo_bytes;
  std::vector<BufferSpec> buffers;       // in file order (allocation order)
  std::vector<TensorMapSpec> tensor_maps;
  std::vector<ArgSpec> args;
  std::vector<SymbolSpec> symbols;
  std::vector<std::string> outputs;

  const BufferSpec* find_buffer(std::string_view name) const;
  const TensorMapSpec* find_tensor_map(std::string_view name) const;
};

// Reads and parses a spec file. Throws SpecError.
LaunchSpec load_spec(const std::string& path);
// Parses spec text; `path` names the file in messages and anchors relative paths.
LaunchSpec parse_spec(std::string_view json_text, const std::string& path);

// The `.target` of PTX text (first architecture token, e.g. "sm_100a"); empty if none.
std::string ptx_target(std::string_view ptx_text);

// The element count of a shape; SpecError when it overflows or exceeds 2^40 bytes.
uint64_t checked_count(const std::vector<uint64_t>& shape, uint32_t elem_size,
                       const std::string& file, const std::string& json_path);

}  // namespace tcsim::spec
