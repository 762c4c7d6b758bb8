// Fuzz target: the launch-spec loader (tools/spec: JSON, every field, init forms against their
// dtype, .npy init files, tensor maps) on arbitrary spec text. File access is sandboxed: the spec
// lives in a private scratch directory holding one PTX file and two .npy files, and inputs that could
// name a file outside it (an absolute path, "..", or a JSON escape that could spell one) are skipped.
// Every other input gives a LaunchSpec or one SpecError.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "isa/arch.h"
#include "tools/spec/buffer_init.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/npy.h"
#include "tools/spec/runner.h"
#include "tools/spec/spec_error.h"
#include "tools/spec/tensor_map_encode.h"

namespace {

void setup_sandbox() {
  static const bool done = [] {
    tcsim::fuzz::write_file("k.ptx",
                            ".version 8.0\n.target sm_90a\n.address_size 64\n"
                            ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n  ret;\n}\n");
    const float f[4] = {1, 2, 3, 4};
    tcsim::spec::write_npy(tcsim::fuzz::scratch_dir() + "/a.npy", "<f4", {4}, f, sizeof f);
    const uint8_t b[6] = {1, 2, 3, 4, 5, 6};
    tcsim::spec::write_npy(tcsim::fuzz::scratch_dir() + "/b.npy", "|u1", {2, 3}, b, sizeof b);
    return true;
  }();
  (void)done;
}

bool may_leave_sandbox(std::string_view s) {
  return s.find("..") != std::string_view::npos || s.find('\\') != std::string_view::npos ||
         s.find("\"/") != std::string_view::npos || s.find("\" /") != std::string_view::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = tcsim::fuzz::as_text(data, size);
  if (may_leave_sandbox(text)) return 0;
  setup_sandbox();
  const std::string path = tcsim::fuzz::write_file("spec.json", text);
  try {
    const tcsim::spec::LaunchSpec s = tcsim::spec::load_spec(path);
    const std::string ptx = tcsim::spec::read_ptx(s);
    (void)tcsim::spec::resolve_arch(s, ptx);
    // Init forms are built for buffers up to 64 KiB: the same code as for larger ones, whose
    // element loops (instrumented for coverage) would dominate an execution's time.
    for (const auto& b : s.buffers)
      if (b.bytes() <= (1u << 16)) (void)tcsim::spec::make_init_bytes(b.init, b.dtype, b.count());
    for (const auto& t : s.tensor_maps) {
      tcsim::spec::check_tensor_map_extent(s, t);
      (void)tcsim::spec::encode_tensor_map_bytes(t, (uint64_t{1} << 40) + t.offset_bytes, s.path,
                                                 tcsim::isa::Arch::Sm100a);
    }
  } catch (const tcsim::spec::SpecError&) {
  }
  return 0;
}
