// A spec's tensor map through tcsim's cuTensorMapEncodeTiled (tools/spec/tensor_map_encode.h).
// The rules themselves are tested in tests/isa (tensor_map_test.cc); here: that the spec's fields
// reach them, and that a rejection names the map and the rule.
#include <doctest/doctest.h>

#include "tools/spec/launch_spec.h"
#include "tools/spec/spec_error.h"
#include "tools/spec/tensor_map_encode.h"

using namespace tcsim::spec;

namespace {
TensorMapSpec map_2d() {
  const LaunchSpec s = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"A": {"dtype": "bf16", "shape": [128, 64]}},
    "tensor_maps": {"tmA": {"buffer": "A", "global_dims": [64, 128], "global_strides_bytes": [128],
                            "box_dims": [64, 32], "swizzle": "128B"}}})", "s.json");
  return s.tensor_maps[0];
}
}  // namespace

TEST_CASE("tensor map encode: a valid map, and a map the driver would reject") {
  TensorMapSpec t = map_2d();
  CHECK(tensor_map_violations(t, 0x10000).empty());
  const std::vector<std::byte> b = encode_tensor_map_bytes(t, 0x10000, "s.json");
  REQUIRE(b.size() == 128);
  // tcsim's layout, word 0 bits 0-31: magic "tcTM"; word 1: the global address.
  CHECK(static_cast<char>(b[0]) == 't');
  CHECK(static_cast<char>(b[3]) == 'M');
  CHECK(static_cast<int>(b[8]) == 0x00);
  CHECK(static_cast<int>(b[9]) == 0x00);
  CHECK(static_cast<int>(b[10]) == 0x01);

  // 128B swizzle with a 256-byte inner box (128 bf16): the inner box must fit the swizzle span.
  t.box_dims = {128, 32};
  CHECK(!tensor_map_violations(t, 0x10000).empty());
  try {
    encode_tensor_map_bytes(t, 0x10000, "s.json");
    FAIL("no error");
  } catch (const SpecError& e) {
    CHECK(std::string(e.what()).find("s.json: tensor_maps.tmA: rejected (as cuTensorMapEncodeTiled would): ") == 0);
  }
  // The global address must be 16-byte aligned.
  t = map_2d();
  CHECK(!tensor_map_violations(t, 0x10008).empty());
}
