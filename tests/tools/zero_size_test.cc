// Zero-size inputs of the launch-spec library (tools/spec): an argument of no bytes, a kernel without
// parameters, an init of no elements, a .npy file of no elements read in place. Each involves an empty
// std::vector or std::span, whose data() may be null; memcpy with a null pointer is undefined even for
// 0 bytes (C11 7.24.1p2, "String function conventions"), which UBSan reports (scripts/sanitize.sh).
#include <doctest/doctest.h>

#include <cstddef>
#include <span>
#include <vector>

#include "tests/tools/test_util.h"
#include "tools/spec/buffer_init.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/npy.h"
#include "tools/spec/params.h"

using namespace tcsim::spec;

namespace {

ArgValues no_values() {
  ArgValues v;
  v.buffer_address = [](const ArgSpec&) -> uint64_t { throw std::logic_error("no buffer expected"); };
  v.tensor_map_bytes = [](const ArgSpec&) -> std::vector<std::byte> { throw std::logic_error("no map expected"); };
  return v;
}

}  // namespace

TEST_CASE("zero size: an argument of no bytes packs into an empty span, alone and as a struct field") {
  ArgSpec empty;
  empty.kind = ArgKind::Bytes;
  empty.json_path = "args[0]";
  REQUIRE(empty.size() == 0);
  CHECK(pack_arg(empty, no_values()).empty());  // an empty vector: data() is null
  pack_arg(empty, no_values(), std::span<std::byte>());

  // A struct of 4 bytes: the empty field at offset 2 writes nothing, the rest stays zero.
  ArgSpec s;
  s.kind = ArgKind::Struct;
  s.struct_size = 4;
  s.json_path = "args[0]";
  ArgSpec field = empty;
  field.field_offset = 2;
  s.fields.push_back(field);
  ArgSpec one;
  one.kind = ArgKind::Bytes;
  one.bytes = {0xab};
  one.field_offset = 0;
  s.fields.push_back(one);
  const std::vector<std::byte> b = pack_arg(s, no_values());
  CHECK(b == std::vector<std::byte>{std::byte{0xab}, std::byte{0}, std::byte{0}, std::byte{0}});
}

TEST_CASE("zero size: a kernel without parameters gets an empty parameter buffer") {
  const LaunchSpec spec = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [32,1,1],
    "args": []})", "s.json");
  const std::vector<ParamInfo> none;
  CHECK(layout_params(none, "k").total == 0);
  CHECK(build_param_buffer(spec, "k", none, no_values()).empty());
}

TEST_CASE("zero size: an init of no elements writes nothing, for every init kind") {
  for (const char* init : {R"({"fill": 0})", R"({"fill": 2.5})", R"({"fill": "0x7"})",
                           R"({"random": {"seed": 3, "dist": "uniform", "low": -2, "high": 2}})",
                           R"({"random": {"seed": 3, "dist": "bits"}})", R"({"random": {"seed": 3, "dist": "normal"}})",
                           R"({"iota": {"start": 1, "step": 2}})", R"({"uninitialised": true})"}) {
    CAPTURE(init);
    const LaunchSpec spec = parse_spec(std::string(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1],
      "block": [32,1,1], "buffers": {"A": {"dtype": "f32", "shape": [4], "init": )") + init + "}}}",
                                       "s.json");
    REQUIRE(spec.buffers.size() == 1);
    const InitSpec& in = spec.buffers[0].init;
    CHECK(make_init_bytes(in, SpecDType::F32, 0).empty());
    fill_init_bytes(in, SpecDType::F32, 0, std::span<std::byte>());
  }
}

TEST_CASE("zero size: a .npy file of no elements is read, whole and in place into an empty span") {
  test::TempDir dir;
  write_npy(dir / "empty.npy", "<f4", {0}, nullptr, 0);
  write_npy(dir / "empty2d.npy", "<u2", {3, 0}, nullptr, 0);
  const NpyArray a = read_npy(dir / "empty.npy");
  CHECK(a.header.count() == 0);
  CHECK(a.data.empty());
  const NpyHeader h = read_npy_into(dir / "empty2d.npy", std::span<std::byte>());
  CHECK(h.count() == 0);
  CHECK(h.shape == std::vector<uint64_t>{3, 0});
  // The init path of a buffer whose file has no elements (the spec parser refuses zero-size buffers,
  // fill_init_bytes is also called directly).
  InitSpec in;
  in.kind = InitKind::File;
  in.file = "empty.npy";
  in.file_path = dir / "empty.npy";
  fill_init_bytes(in, SpecDType::F32, 0, std::span<std::byte>());
}
