// The contents a launch spec's `init` gives a buffer or symbol (LAUNCH_SPEC.md "buffers", the
// exact rules in docs/launch_spec.md "Initialisation"): fill, file, random, iota. The same code
// fills memory in tcsim and tcsim-hw, so both start from the same bits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tools/spec/launch_spec.h"

namespace tcsim::spec {

// Checks that `init` can fill `count` elements of `dtype` (values in range and representable,
// integers where integers are needed, a .npy file whose element size and count match).
// Throws SpecError naming init.spec_file and init.json_path.
void check_init(const InitSpec& init, SpecDType dtype, uint64_t count);

// The initial bytes of `count` elements (count * elem_bytes(dtype) bytes, little-endian).
// Expects a checked init (check_init); a file that changed since is re-checked.
std::vector<std::byte> make_init_bytes(const InitSpec& init, SpecDType dtype, uint64_t count);
// The same bytes written into `out` (exactly count * elem_bytes(dtype) bytes): the spec loader
// fills the simulator's global memory in place with it (no host image, tools/spec/runner.cc).
void fill_init_bytes(const InitSpec& init, SpecDType dtype, uint64_t count, std::span<std::byte> out);
// True when the init is a fill whose element bytes are all zero (`0`, `0.0`, `"0x0"`; not -0.0).
bool is_zero_init(const InitSpec& init, SpecDType dtype);

// The largest finite value of a float dtype (e2m1x2: of one e2m1 value).
double max_finite(SpecDType dtype);

}  // namespace tcsim::spec
