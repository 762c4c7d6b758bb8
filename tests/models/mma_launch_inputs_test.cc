// The tcgen05 probe-tile launch specs (kernels/probes/tcgen05/launch/) carry exactness-invariant
// inputs and an expected D computed with exact rationals by make_inputs.py. Unpacking their
// operand bytes the way the kernel's shared-memory layout documents it and running the
// sm_100a tcgen05 rows of the engine must give exactly that D (any model gives it: the data is
// exact), which ties the packing conventions, the idesc types and the expected file together.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "models/mma/engine.h"
#include "models/mma/param_table.h"

using namespace tcsim::models::mma;
using tcsim::isa::DType;
using tcsim::isa::MmaKind;

namespace {

std::vector<uint8_t> npy_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  REQUIRE_MESSAGE(f, path);
  std::vector<uint8_t> all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  REQUIRE(all.size() > 10);
  const size_t hlen = all[8] | (all[9] << 8);
  return std::vector<uint8_t>(all.begin() + 10 + hlen, all.end());
}
std::vector<uint32_t> npy_u32(const std::string& path) {
  const auto b = npy_bytes(path);
  std::vector<uint32_t> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), v.size() * 4);
  return v;
}

void check(const char* name, MmaKind kind, DType t, int k, ScaleType st, int block) {
  const std::string pre = std::string(TCSIM_SOURCE_DIR) + "/kernels/probes/tcgen05/launch/" + name;
  const auto A = npy_bytes(pre + "_a.npy"), B = npy_bytes(pre + "_b.npy");
  const auto C = npy_u32(pre + "_c.npy"), want = npy_u32(pre + "_d_expected.npy");
  const int m = 128, n = 16;
  const auto unpack = [&](const std::vector<uint8_t>& bytes, int rows) {
    std::vector<uint32_t> codes;
    for (int r = 0; r < rows; ++r)
      for (int i = 0; i < k; ++i) {
        const uint8_t* row = &bytes[r * 32];
        if (t == DType::BF16) codes.push_back(row[2 * i] | (row[2 * i + 1] << 8));
        else if (t == DType::E2M1) codes.push_back((row[i / 2] >> (4 * (i % 2))) & 0xf);
        else codes.push_back(row[i]);
      }
    return codes;
  };
  const auto a = unpack(A, m), b = unpack(B, n);
  DotShape s;
  s.num = find_row(Arch::Sm100a, Path::Tcgen05, kind, t, t, DType::F32)->num;
  s.kind = kind;
  s.atype = s.btype = t;
  s.dtype = DType::F32;
  s.k = k;
  s.scale_type = st;
  s.scale_block = block;
  std::vector<uint8_t> sa, sb;
  if (block) {
    sa = npy_bytes(pre + "_sa.npy");
    sb = npy_bytes(pre + "_sb.npy");
  }
  std::vector<uint32_t> d(m * n);
  DotEngine(s).tile(m, n, a.data(), b.data(), C.data(), d.data(), block ? sa.data() : nullptr,
                    block ? sb.data() : nullptr);
  CHECK(d == want);
}

}  // namespace

TEST_CASE("tcgen05 probe-tile launch specs: expected D equals the engine on the unpacked inputs") {
  check("tcgen05_tile_f16_bf16", MmaKind::F16, DType::BF16, 16, ScaleType::None, 0);
  check("tcgen05_tile_f8f6f4_e4m3", MmaKind::F8F6F4, DType::E4M3, 32, ScaleType::None, 0);
  check("tcgen05_tile_mxf4nvf4_ue4m3", MmaKind::MXF4NVF4, DType::E2M1, 64, ScaleType::UE4M3, 16);
}
