// Fuzz target: the .npy reader (tools/spec/npy.cc) on a file of arbitrary bytes: the header alone
// (what spec checking reads) and the whole array. Every input gives an array or one SpecError.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"
#include "tools/spec/npy.h"
#include "tools/spec/spec_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = tcsim::fuzz::write_file("input.npy", tcsim::fuzz::as_text(data, size));
  try {
    (void)tcsim::spec::read_npy_header(path);
    (void)tcsim::spec::read_npy(path);
  } catch (const tcsim::spec::SpecError&) {
  }
  return 0;
}
