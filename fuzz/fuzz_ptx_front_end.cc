// Fuzz target: the PTX front end as `tcsim run` and `tcsim check-ptx` use it: the architecture from
// the text's .target line (tools/spec/launch_spec.h ptx_target; sm_90a when it names none tcsim
// models), then Device::load_ptx: parse (isa/ptx) and bind every .entry (sim/program.cc, every
// family binder), each once per input. Any input must give a module or one error, never a crash, a
// hang or an unbounded allocation. Seeds: kernels/**/*.ptx; dictionary: fuzz/ptx.dict.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <string>

#include "fuzz/fuzz_util.h"
#include "isa/arch.h"
#include "sim/api.h"
#include "tools/spec/launch_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = tcsim::fuzz::as_text(data, size);
  const auto arch = tcsim::isa::parse_arch(tcsim::spec::ptx_target(text)).value_or(tcsim::isa::Arch::Sm90a);
  tcsim::sim::DeviceOptions opts;
  opts.host_threads = 1;  // no worker threads: nothing is launched
  try {
    tcsim::sim::Device dev(arch, opts);
    dev.load_ptx(text, "fuzz.ptx");
  } catch (const tcsim::sim::SimError&) {
  }
  return 0;
}
