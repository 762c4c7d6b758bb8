// isa/layouts' TMA function (isa::TmaLayout) against the H200, element for element: every swizzle
// spec of kernels/tma/swizzle whose hardware output is committed (kernels/tma/golden/h200/<spec>/,
// from `tcsim-hw run` on the H200) loads one box into a 0xA5-filled window and writes the window out
// raw. Here the window is rebuilt from the spec alone — the input buffer from the spec's generator,
// the tensor map's fields, and each box element placed at TmaLayout::locate() — and compared byte
// for byte with the H200's. No simulator code is involved (the simulator's run of the same specs is
// the golden CTest kernels_tma_golden_<spec>).
//
// The kernel (kernels/tma/tma_smem_image.cu) puts the window at a 1024-aligned shared address, so
// the swizzle XOR of absolute address bits 4-9 sees the window offset alone.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "isa/descriptors/tensor_map.h"
#include "isa/layouts/tma_layout.h"
#include "tools/spec/buffer_init.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/npy.h"
#include "tools/spec/tensor_map_encode.h"

using namespace tcsim;

namespace {

constexpr uint64_t kBase = 0x7f0000000000;  // where the model puts the tensor's buffer

// The window the H200 should have written for one spec, from isa::TmaLayout.
std::vector<uint8_t> model_window(const spec::LaunchSpec& s, std::string* why) {
  const spec::TensorMapSpec& t = s.tensor_maps.at(0);
  const spec::BufferSpec* buf = nullptr;
  for (const auto& b : s.buffers)
    if (b.name == t.buffer) buf = &b;
  REQUIRE(buf);
  const std::vector<std::byte> g = spec::make_init_bytes(buf->init, buf->dtype, buf->count());
  const isa::Arch arch = isa::parse_arch(s.arch.value_or("sm_90a")).value_or(isa::Arch::Sm90a);
  const auto enc = spec::encode_tensor_map_bytes(t, kBase + t.offset_bytes, s.path, arch);
  std::vector<uint8_t> raw(enc.size());
  std::memcpy(raw.data(), enc.data(), raw.size());
  const auto p = isa::decode_tensor_map(raw, arch);
  REQUIRE(p.has_value());
  // Arguments: tm, c0, c1 (, c2), dst_offset, tx_bytes, image_bytes, out, info.
  const bool d3 = s.kernel == "tma_smem_image_3d";
  const size_t rank = d3 ? 3 : 2;
  int64_t c[5] = {0, 0, 0, 0, 0};
  for (size_t d = 0; d < rank; ++d) c[d] = static_cast<int32_t>(s.args.at(1 + d).scalar_bits);
  const uint32_t dst = static_cast<uint32_t>(s.args.at(1 + rank).scalar_bits);
  const uint32_t image = static_cast<uint32_t>(s.args.at(3 + rank).scalar_bits);

  isa::TmaBox box;
  box.rank = static_cast<int>(p->rank);
  for (uint32_t d = 0; d < 5; ++d) {
    box.box_dim[d] = d < p->rank ? p->box_dim[d] : 1;
    box.element_strides[d] = d < p->rank ? p->element_strides[d] : 1;
  }
  const int bits = isa::tensor_map_global_bits(p->data_type);
  box.elem = isa::dense_format(bits);
  box.interleave = p->interleave;
  box.swizzle = p->swizzle;
  const auto lay = isa::TmaLayout::make(box, dst);
  if (!lay) {
    *why = lay.error().message;
    return {};
  }
  std::vector<uint8_t> w(image, 0xA5);
  const uint32_t es = static_cast<uint32_t>(bits / 8);
  uint32_t i[5] = {0, 0, 0, 0, 0};
  for (;;) {
    bool inb = true;
    uint64_t off = 0;
    for (uint32_t d = 0; d < p->rank; ++d) {
      const int64_t gc = c[d] + int64_t{i[d]} * (d ? p->element_strides[d] : 1);
      if (gc < 0 || gc >= static_cast<int64_t>(p->global_dim[d])) inb = false;
      off += d ? static_cast<uint64_t>(gc) * p->global_strides[d - 1] : static_cast<uint64_t>(gc) * es;
    }
    const isa::SmemLocation at = lay->locate(i[0], i[1], i[2], i[3], i[4]);
    REQUIRE(at.byte + es <= w.size());
    for (uint32_t k = 0; k < es; ++k) {
      // The specs use oob_fill none: out-of-bound elements are zero.
      w[at.byte + k] = inb ? static_cast<uint8_t>(g.at(p->global_address - kBase + off + k)) : 0;
    }
    uint32_t d = 0;
    for (; d < 5; ++d) {
      if (++i[d] < lay->extent(static_cast<int>(d))) break;
      i[d] = 0;
    }
    if (d == 5) break;
  }
  return w;
}

}  // namespace

TEST_CASE("isa/layouts' TMA function reproduces the H200's shared-memory image of every swizzle mode") {
  namespace fs = std::filesystem;
  const fs::path root = TCSIM_SOURCE_DIR "/kernels/tma";
  int compared = 0;
  std::vector<std::string> modes;
  for (const auto& e : fs::directory_iterator(root / "swizzle")) {
    if (e.path().extension() != ".json") continue;
    const std::string stem = e.path().stem().string();
    const fs::path golden = root / "golden/h200" / stem / "out.npy";
    if (!fs::exists(golden)) continue;
    CAPTURE(stem);
    const spec::LaunchSpec s = spec::load_spec(e.path().string());
    std::string why;
    const std::vector<uint8_t> want = model_window(s, &why);
    REQUIRE_MESSAGE(!want.empty(), why);
    const spec::NpyArray hw = spec::read_npy(golden.string());
    REQUIRE(hw.data.size() >= want.size());
    size_t diffs = 0, first = want.size();
    for (size_t k = 0; k < want.size(); ++k)
      if (static_cast<uint8_t>(hw.data[k]) != want[k]) {
        ++diffs;
        first = std::min(first, k);
      }
    CHECK_MESSAGE(diffs == 0, diffs, " bytes differ, first at window offset ", first);
    // The bytes past the image stay the kernel's zero fill of `out`.
    for (size_t k = want.size(); k < hw.data.size(); ++k) CHECK(static_cast<uint8_t>(hw.data[k]) == 0);
    ++compared;
  }
  MESSAGE(compared, " swizzle images compared with the H200");
  CHECK(compared >= 20);  // none, 32B, 64B, 128B x u8..u64, plus the offset variants
}
