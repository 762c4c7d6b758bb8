// tensormap.replace of every field (sim/exec/tensormap.cc, isa::tensor_map_replace), PTX ISA
// §9.7.9.27: one thread copies the parameter map to shared memory, replaces fields there, publishes
// it with tensormap.cp_fenceproxy, acquires it with fence.proxy.tensormap and loads a box through
// it with cp.async.bulk.tensor. The expected shared-memory images are hand-worked below from the
// new field values (PTX ISA §5.5 tensor copies, §5.5.7 swizzle as byte-address XORs).
//
// Base map: u32, rank 2, globalDim {16, 16}, stride 64 B (16 words per row), box {8, 4}, element
// strides {1, 1}, no swizzle. Global memory: 1024 words, word i = i, so element (x, y) of the base
// map is the word 16y + x.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "isa/descriptors/tensor_map.h"
#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// `edits`: tensormap.replace lines on [%r1] (the shared copy); `dims`/`coords`: the load's
// dimensionality suffix and coordinate list (registers: %r10 = 0, %r11 = 1); `tx`: the box's bytes
// (expect_tx).
std::string kernel(const std::string& edits, const std::string& dims, const std::string& coords, uint32_t tx) {
  std::string k = test::ptx_header() + R"(
.shared .align 1024 .b8 buf[2048];
.shared .align 128 .b8 smap[128];
.shared .align 8 .b64 bar;
.visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 scratch, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<16>;
  mov.u64 %rd1, tmap;
  ld.param.u64 %rd7, [scratch];
  cvta.to.global.u64 %rd2, %rd7;
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r1, smap;
  mov.u32 %r2, buf;
  mov.u32 %r3, bar;
  mov.u32 %r4, 0;
  mov.u32 %r7, 0;
$Lzero:
  add.u32 %r5, %r2, %r4;
  st.shared.u32 [%r5], %r7;
  add.u32 %r4, %r4, 4;
  setp.lt.u32 %p1, %r4, 2048;
  @%p1 bra $Lzero;
)";
  for (int i = 0; i < 16; ++i)
    k += "  ld.param.u64 %rd4, [tmap+" + std::to_string(8 * i) + "];\n  st.shared.u64 [%r1+" + std::to_string(8 * i) +
         "], %rd4;\n";
  k += edits + R"(
  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd2], [%r1], 128;
  fence.proxy.tensormap::generic.acquire.gpu [%rd7], 128;
  mov.u32 %r10, 0;
  mov.u32 %r11, 1;
  mbarrier.init.shared::cta.b64 [%r3], 1;
  fence.mbarrier_init.release.cluster;
  fence.proxy.async.shared::cta;
  mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%r3], )" +
       std::to_string(tx) + R"(;
  cp.async.bulk.tensor.)" + dims + R"(.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd7, {)" + coords +
       R"(}], [%r3];
$Lwait:
  mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p2, [%r3], 0;
  @!%p2 bra $Lwait;
  mov.u32 %r4, 0;
$Lcopy:
  add.u32 %r5, %r2, %r4;
  ld.shared.u32 %r6, [%r5];
  cvt.u64.u32 %rd5, %r4;
  add.u64 %rd6, %rd3, %rd5;
  st.global.u32 [%rd6], %r6;
  add.u32 %r4, %r4, 4;
  setp.lt.u32 %p1, %r4, 2048;
  @%p1 bra $Lcopy;
  ret;
}
)";
  return k;
}

// Runs the kernel; returns the 512 words of buf.
std::vector<uint32_t> run(const std::string& ptx) {
  test::Harness h;
  h.load(ptx, "tensormap_replace.ptx");
  std::vector<uint32_t> g(1024);
  for (uint32_t i = 0; i < 1024; ++i) g[i] = i;
  isa::TensorMapParams m;
  m.data_type = isa::TensorMapDataType::UInt32;
  m.rank = 2;
  m.global_address = h.upload(g);
  m.global_dim = {16, 16, 0, 0, 0};
  m.global_strides = {64, 0, 0, 0};
  m.box_dim = {8, 4, 0, 0, 0};
  m.element_strides = {1, 1, 0, 0, 0};
  const auto bytes = isa::encode_tensor_map(m);
  REQUIRE(bytes);
  const uint64_t scratch = h.zeros(256);
  const uint64_t out = h.zeros(2048);
  h.launch("k", {1, 1, 1}, {1, 1, 1},
           test::Params().raw(bytes->data(), bytes->size(), 64).add(scratch).add(out));
  return h.download<uint32_t>(out, 512);
}

std::string error_of(const std::string& ptx) {
  try {
    run(ptx);
  } catch (const sim::SimError& e) {
    return e.what();
  }
  return "";
}

// buf image of `rows` rows of `row_words` words, `pitch` words apart; word (r, c) = f(r, c); the
// rest 0.
template <class F>
std::vector<uint32_t> image(int rows, int row_words, int pitch, F f) {
  std::vector<uint32_t> v(512, 0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < row_words; ++c) v[static_cast<size_t>(r * pitch + c)] = f(r, c);
  return v;
}

std::string rep(const std::string& field, const std::string& args) {
  return "  tensormap.replace.tile." + field + ".shared::cta.b1024." + args + ";\n";
}

}  // namespace

constexpr const char* k00 = "%r10, %r10";

TEST_CASE("tensormap.replace: the unedited map loads the base box") {
  // Box 8 x 4 at (0, 0): row r holds words 16r .. 16r+7, rows 32 bytes apart.
  CHECK(run(kernel("", "2d", k00, 128)) == image(4, 8, 8, [](int r, int c) { return 16u * r + c; }));
}

TEST_CASE("tensormap.replace .box_dim: ord selects the dimension, new_val is the extent") {
  // box_dim[0] := 4 -> box 4 x 4, rows of 16 bytes: word 4r + c = 16r + c; 64 bytes.
  CHECK(run(kernel(rep("box_dim", "b32 [%r1], 0, 4"), "2d", k00, 64)) ==
        image(4, 4, 4, [](int r, int c) { return 16u * r + c; }));
  // box_dim[1] := 2 -> box 8 x 2: 64 bytes.
  CHECK(run(kernel(rep("box_dim", "b32 [%r1], 1, 2"), "2d", k00, 64)) ==
        image(2, 8, 8, [](int r, int c) { return 16u * r + c; }));
}

TEST_CASE("tensormap.replace .global_dim: elements past the new extent read as zero") {
  // global_dim[0] := 4: columns 4..7 of every row are out of bounds (zero fill); the box still
  // counts 128 bytes.
  CHECK(run(kernel(rep("global_dim", "b32 [%r1], 0, 4"), "2d", k00, 128)) ==
        image(4, 8, 8, [](int r, int c) { return c < 4 ? 16u * r + c : 0u; }));
}

TEST_CASE("tensormap.replace .global_stride: ord 0 is the byte stride of dimension 1") {
  // stride[0] := 128 bytes -> row y starts at word 32y: word 8r + c = 32r + c.
  CHECK(run(kernel(rep("global_stride", "b64 [%r1], 0, 128"), "2d", k00, 128)) ==
        image(4, 8, 8, [](int r, int c) { return 32u * r + c; }));
}

TEST_CASE("tensormap.replace .element_stride: ord 1 := 2 loads every other row") {
  // elementStrides[1] = 2 with box_dim[1] = 4: ceil(4 / 2) = 2 rows, y = 0 and 2 -> words 32r + c;
  // 2 x 32 = 64 bytes.
  CHECK(run(kernel(rep("element_stride", "b32 [%r1], 1, 2"), "2d", k00, 64)) ==
        image(2, 8, 8, [](int r, int c) { return 32u * r + c; }));
}

TEST_CASE("tensormap.replace .rank: new_val is rank - 1") {
  // rank := 1 (new_val 0): a 1-D map over dimension 0, box 8: words 0..7, 32 bytes.
  CHECK(run(kernel(rep("rank", "b32 [%r1], 0"), "1d", "%r10", 32)) ==
        image(1, 8, 8, [](int, int c) { return static_cast<uint32_t>(c); }));
  // rank := 3 (new_val 2), then dimension 2 filled in: extent 4, box 1, element stride 1, stride
  // (global_stride ord 1) 1024 bytes = 256 words. Load at (0, 0, 1): words 256 + 16r + c.
  const std::string edits = rep("rank", "b32 [%r1], 2") + rep("global_dim", "b32 [%r1], 2, 4") +
                            rep("box_dim", "b32 [%r1], 2, 1") + rep("element_stride", "b32 [%r1], 2, 1") +
                            rep("global_stride", "b64 [%r1], 1, 1024");
  CHECK(run(kernel(edits, "3d", "%r10, %r10, %r11", 128)) ==
        image(4, 8, 8, [](int r, int c) { return 256u + 16u * r + c; }));
  // Raised without filling the new dimension in: its extent and box are 0, which the decoder's
  // validation reports when the copy uses the map.
  const std::string e = error_of(kernel(rep("rank", "b32 [%r1], 2"), "3d", "%r10, %r10, %r10", 128));
  CHECK_MESSAGE(e.find("invalid tensor map") != std::string::npos, e);
}

TEST_CASE("tensormap.replace .elemtype: the PTX ISA codes (not CUtensorMapDataType's)") {
  // 9 = .f64 (CUtensorMapDataType 9 would be BFLOAT16): 8 elements of 8 bytes per row = 64 bytes,
  // rows of the 64-byte-stride tensor are contiguous: word k = k for k < 64; 256 bytes.
  CHECK(run(kernel(rep("elemtype", "b32 [%r1], 9"), "2d", k00, 256)) ==
        image(1, 64, 64, [](int, int c) { return static_cast<uint32_t>(c); }));
  // 10 = .bf16 (CUtensorMapDataType 10 would be FLOAT32_FTZ): rows of 8 x 2 = 16 bytes = 4 words:
  // word 4r + c = 16r + c; 64 bytes.
  CHECK(run(kernel(rep("elemtype", "b32 [%r1], 10"), "2d", k00, 64)) ==
        image(4, 4, 4, [](int r, int c) { return 16u * r + c; }));
}

TEST_CASE("tensormap.replace .fill_mode: 1 fills out-of-bounds float elements with NaN") {
  // elemtype := 7 (.f32), fill_mode := 1, global_dim[0] := 4: columns 4..7 hold the OOB NaN fill
  // 0x7ff7 in each 16-bit half (H200 fact, tma_box_test.cc).
  const std::string edits = rep("elemtype", "b32 [%r1], 7") + rep("fill_mode", "b32 [%r1], 1") +
                            rep("global_dim", "b32 [%r1], 0, 4");
  CHECK(run(kernel(edits, "2d", k00, 128)) ==
        image(4, 8, 8, [](int r, int c) { return c < 4 ? 16u * r + c : 0x7ff77ff7u; }));
}

TEST_CASE("tensormap.replace .swizzle_mode / .swizzle_atomicity") {
  // swizzle_mode := 1 (32B) with box_dim[1] := 8: 32-byte rows, byte address A -> A ^ ((A >> 3) &
  // 0x10): rows 4..7 (A bit 7 set) swap their 16-byte halves: word 8r + c holds element
  // (c ^ 4, r) for r >= 4. 256 bytes.
  CHECK(run(kernel(rep("swizzle_mode", "b32 [%r1], 1") + rep("box_dim", "b32 [%r1], 1, 8"), "2d", k00, 256)) ==
        image(8, 8, 8, [](int r, int c) { return 16u * r + static_cast<uint32_t>(r >= 4 ? c ^ 4 : c); }));
  // swizzle_mode := 3 (128B), then swizzle_atomicity := 3 (64B): rows padded to the 128-byte span
  // (row r at byte 128r), A -> A ^ ((A >> 1) & 0x40): odd rows land 64 bytes into their line.
  const std::string e128 = rep("swizzle_mode", "b32 [%r1], 3") + rep("swizzle_atomicity", "b32 [%r1], 3");
  CHECK(run(kernel(e128, "2d", k00, 128)) ==
        image(4, 32, 32, [](int r, int c) {
          const int at = (r & 1) ? c - 16 : c;  // word c of the 128-byte line
          return at >= 0 && at < 8 ? 16u * r + static_cast<uint32_t>(at) : 0u;
        }));
  // An atomicity other than 16B without the 128B span is refused at the replace.
  const std::string e = error_of(kernel(rep("swizzle_atomicity", "b32 [%r1], 1"), "2d", k00, 128));
  CHECK_MESSAGE(e.find("replace .swizzle_mode with 3 (128B) first") != std::string::npos, e);
}

TEST_CASE("tensormap.replace .interleave_layout reaches the copy") {
  // interleave := 1 (16B) on the rank-2 map: the driver requires rank >= 3 for an interleaved
  // map, reported when the copy uses it.
  const std::string e = error_of(kernel(rep("interleave_layout", "b32 [%r1], 1"), "2d", k00, 128));
  CHECK_MESSAGE(e.find("interleave") != std::string::npos, e);
  CHECK_MESSAGE(e.find("invalid tensor map") != std::string::npos, e);
}

TEST_CASE("tensormap.replace: a map that breaks the driver's rules is reported by the copy") {
  // box_dim[0] := 512 > 256.
  const std::string e = error_of(kernel(rep("box_dim", "b32 [%r1], 0, 512"), "2d", k00, 128));
  CHECK_MESSAGE(e.find("invalid tensor map") != std::string::npos, e);
  CHECK_MESSAGE(e.find("boxDim[0] = 512") != std::string::npos, e);
  // Codes outside the PTX table, and ord past the rank, are refused at the replace.
  CHECK(error_of(kernel(rep("elemtype", "b32 [%r1], 16"), "2d", k00, 128)).find("Tensormap new_val validity") !=
        std::string::npos);
  CHECK(error_of(kernel(rep("box_dim", "b32 [%r1], 2, 4"), "2d", k00, 128)).find("ord 2") != std::string::npos);
  CHECK(error_of(kernel(rep("global_stride", "b64 [%r1], 1, 64"), "2d", k00, 128)).find("ord 1") !=
        std::string::npos);
  CHECK(error_of(kernel(rep("rank", "b32 [%r1], 5"), "2d", k00, 128)).find("rank 1-5") != std::string::npos);
}
