// tcgen05.mma probes for sm_100a (B200), ready for the day a B200 is available: the Q1-Q20 probes
// of docs/mma_numerics.md §6 through tcgen05 (B1, B2, B9, B11) plus the B200 questions of §4.2
// (B3-B8; see README.md), a layout self-check and a random differential run per combination of
// the sm_100a tcgen05 parameter rows of tcsim. Output lines as probes_sm90 / diff_sm90:
//   PROBE <combo> <id> hw=<D> row=<tcsim row> <hypothesis>=<D>... a=... b=... c=... [sa= sb=] # ...
//   LAYOUT / SUMMARY / DIFF / MISMATCH / TOTAL
// Usage: tcgen05_probes [--filter S] [--diff N] (N outputs per combination, default 1,000,000)
// Build: nvcc -std=c++20 -O3 -gencode arch=compute_100a,code=sm_100a -I<repo> this file +
//        the tcsim model sources (see ../run_on_device.sh).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/probes/common/probe_set.h"
#include "kernels/probes/sm90/gen.h"
#include "kernels/probes/sm90/host_util.h"
#include "kernels/probes/tcgen05/tcgen05_kernels.cuh"
#include "models/mma/engine.h"
#include "models/mma/param_table.h"

namespace probes {

std::string hex(uint32_t v, int digits) {
  char b[16];
  std::snprintf(b, sizeof b, "%0*x", digits, v);
  return b;
}

namespace {

namespace mm = tcsim::models::mma;
using tcsim::isa::MmaKind;

using LaunchFn = void (*)(int, const uint8_t*, const uint8_t*, const uint32_t*, uint32_t*,
                          const uint8_t*, const uint8_t*, uint32_t, int, int);
template <int KIND, int SID>
void launch(int tiles, const uint8_t* A, const uint8_t* B, const uint32_t* C, uint32_t* D,
            const uint8_t* SA, const uint8_t* SB, uint32_t idesc, int nsf, int reps) {
  tc::tc_tiles<KIND, SID><<<tiles, 128>>>(A, B, C, D, SA, SB, idesc, nsf, reps);
}

struct Combo {
  std::string name;
  const mm::ParamRow* row;
  mm::ScaleType st = mm::ScaleType::None;
  int block = 0;
  int sid = 0;          // scale-input-d
  bool saturate = false;  // kind::i8 idesc bit 3
  bool neg_a = false, neg_b = false;
  int K = 0;
  int kernel = 0;       // tc::Kind
  mm::DotShape shape(const std::vector<std::string>& sets = {}) const {
    mm::DotShape s;
    s.num = row->num;
    for (const auto& a : sets)
      if (const std::string e = mm::set_numerics_field(s.num, a); !e.empty()) throw std::runtime_error(e);
    s.kind = row->kind;
    s.atype = row->atype;
    s.btype = row->btype;
    s.dtype = row->dtype;
    s.k = K;
    s.scale_type = st;
    s.scale_block = block;
    s.scale_input_d = sid;
    s.negate_a = neg_a;
    s.negate_b = neg_b;
    s.saturate = saturate;
    return s;
  }
  int nsf() const { return block ? K / block : 0; }
  LaunchFn launcher() const {
    switch (kernel) {
      case tc::kF16: return sid == 0 ? launch<tc::kF16, 0> : sid == 1 ? launch<tc::kF16, 1> : launch<tc::kF16, 15>;
      case tc::kTF32: return sid == 0 ? launch<tc::kTF32, 0> : sid == 1 ? launch<tc::kTF32, 1> : launch<tc::kTF32, 15>;
      case tc::kF8F6F4: return launch<tc::kF8F6F4, 0>;
      case tc::kI8: return launch<tc::kI8, 0>;
      case tc::kMXF8F6F4: return launch<tc::kMXF8F6F4, 0>;
      case tc::kMXF4: return launch<tc::kMXF4, 0>;
      case tc::kMXF4NVF4_2X: return launch<tc::kMXF4NVF4_2X, 0>;
      default: return launch<tc::kMXF4NVF4_4X, 0>;
    }
  }
  // Instruction descriptor (PTX ISA §9.7.16.4.2 Tables 42-44; docs/smem_layouts.md §7)
  uint32_t idesc(bool saturate) const {
    const auto f8 = [](DType t) -> uint32_t {
      switch (t) {
        case DType::E4M3: return 0;
        case DType::E5M2: return 1;
        case DType::E2M3: return 3;
        case DType::E3M2: return 4;
        default: return 5;  // e2m1
      }
    };
    const auto code = [&](DType t) -> uint32_t {
      switch (row->kind) {
        case MmaKind::F16: return t == DType::BF16 ? 1 : 0;
        case MmaKind::TF32: return 2;
        case MmaKind::I8: return t == DType::S8 ? 1 : 0;
        case MmaKind::MXF4:
        case MmaKind::MXF4NVF4: return 1;  // E2M1 = 1 in the mxf4 kinds
        default: return f8(t);
      }
    };
    uint32_t d = code(row->atype) << 7 | code(row->btype) << 10;
    d |= (neg_a ? 1u : 0u) << 13 | (neg_b ? 1u : 0u) << 14;
    d |= uint32_t{tc::N >> 3} << 17;
    d |= uint32_t{tc::M >> 4} << 24;  // = M >> 7 at bit 27 for the block-scaled kinds
    if (isa_block_scaled()) {
      d |= (st == mm::ScaleType::UE8M0 ? 1u : 0u) << 23;  // SFA_ID = SFB_ID = 0
    } else {
      d |= (row->dtype == DType::F16 ? 0u : row->dtype == DType::F32 ? 1u : 2u) << 4;
      d |= (saturate ? 1u : 0u) << 3;
    }
    return d;
  }
  bool isa_block_scaled() const { return tcsim::isa::is_block_scaled(row->kind); }
};

int kernel_of(MmaKind k, int block) {
  switch (k) {
    case MmaKind::F16: return tc::kF16;
    case MmaKind::TF32: return tc::kTF32;
    case MmaKind::F8F6F4: return tc::kF8F6F4;
    case MmaKind::I8: return tc::kI8;
    case MmaKind::MXF8F6F4: return tc::kMXF8F6F4;
    case MmaKind::MXF4: return tc::kMXF4;
    default: return block == 16 ? tc::kMXF4NVF4_4X : tc::kMXF4NVF4_2X;
  }
}

std::vector<Combo> make_combos() {
  std::vector<Combo> v;
  for (const mm::ParamRow& r : mm::param_rows()) {
    if (r.arch != mm::Arch::Sm100a || r.path != mm::Path::Tcgen05) continue;
    std::vector<std::pair<mm::ScaleType, int>> sc = {{mm::ScaleType::None, 0}};
    if (r.kind == MmaKind::MXF8F6F4 || r.kind == MmaKind::MXF4) sc = {{mm::ScaleType::UE8M0, 32}};
    if (r.kind == MmaKind::MXF4NVF4)
      sc = {{mm::ScaleType::UE8M0, 32}, {mm::ScaleType::UE8M0, 16}, {mm::ScaleType::UE4M3, 16}};
    for (auto [st, block] : sc) {
      Combo c;
      c.row = &r;
      c.st = st;
      c.block = block;
      c.K = r.ks[0];
      c.kernel = kernel_of(r.kind, block);
      c.name = "tcgen05 kind::" + std::string(tcsim::isa::kind_name(r.kind)) + " " +
               std::string(tcsim::isa::dtype_name(r.atype)) + "*" +
               std::string(tcsim::isa::dtype_name(r.btype)) + "->" +
               std::string(tcsim::isa::dtype_name(r.dtype));
      if (st != mm::ScaleType::None)
        c.name += std::string(st == mm::ScaleType::UE8M0 ? " ue8m0" : " ue4m3") + "/" + std::to_string(block);
      v.push_back(c);
      if (r.kind == MmaKind::I8) {  // B11: the saturate bit
        Combo sat = c;
        sat.saturate = true;
        sat.name += " saturate";
        v.push_back(sat);
      }
      // B7 scale-input-d and B8 negate: on one row of each kind that has them
      const bool first_of_kind = (r.kind == MmaKind::F16 && r.atype == DType::BF16) ||
                                 (r.kind == MmaKind::TF32) ||
                                 (r.kind == MmaKind::F8F6F4 && r.atype == DType::E4M3 &&
                                  r.btype == DType::E4M3 && r.dtype == DType::F32) ||
                                 (r.kind == MmaKind::MXF4NVF4 && st == mm::ScaleType::UE4M3);
      if (first_of_kind) {
        Combo n = c;
        n.neg_a = true;
        n.name += " negA";
        v.push_back(n);
        n.neg_a = false;
        n.neg_b = true;
        n.name = c.name + " negB";
        v.push_back(n);
        if (r.kind == MmaKind::F16 || r.kind == MmaKind::TF32)
          for (int s : {1, 15}) {
            Combo d = c;
            d.sid = s;
            d.name += " scale-input-d=" + std::to_string(s);
            v.push_back(d);
          }
      }
    }
  }
  return v;
}

// Packs one row of K element codes into the 32 bytes the shared-memory layout holds
// (PTX ISA §9.7.16.10.4: fp6/fp4 of kind::f8f6f4/mxf8f6f4 in 16-element units padded to 16
// bytes; mxf4 kinds two e2m1 per byte; little-endian element order assumed - UNCONFIRMED).
void pack_row(const Combo& c, DType t, const uint32_t* codes, uint8_t* out) {
  std::memset(out, 0, tc::ROWB);
  const int K = c.K;
  const bool mx4 = c.row->kind == MmaKind::MXF4 || c.row->kind == MmaKind::MXF4NVF4;
  if (mx4) {
    for (int k = 0; k < K; ++k) out[k / 2] |= static_cast<uint8_t>((codes[k] & 0xf) << (4 * (k % 2)));
    return;
  }
  switch (t) {
    case DType::F16: case DType::BF16:
      for (int k = 0; k < K; ++k) out[2 * k] = codes[k] & 0xff, out[2 * k + 1] = (codes[k] >> 8) & 0xff;
      return;
    case DType::TF32:
      for (int k = 0; k < K; ++k)
        for (int b = 0; b < 4; ++b) out[4 * k + b] = (codes[k] >> (8 * b)) & 0xff;
      return;
    case DType::E2M1:  // 16 elements -> 8 bytes + 8 pad
      for (int k = 0; k < K; ++k) out[(k / 16) * 16 + (k % 16) / 2] |= static_cast<uint8_t>((codes[k] & 0xf) << (4 * (k % 2)));
      return;
    case DType::E2M3: case DType::E3M2:  // 16 elements -> 12 bytes + 4 pad
      for (int k = 0; k < K; ++k) {
        const int bit = (k % 16) * 6;
        const uint32_t v = (codes[k] & 0x3f) << (bit % 8);
        uint8_t* u = out + (k / 16) * 16 + bit / 8;
        u[0] |= static_cast<uint8_t>(v);
        u[1] |= static_cast<uint8_t>(v >> 8);
      }
      return;
    default:
      for (int k = 0; k < K; ++k) out[k] = static_cast<uint8_t>(codes[k]);
  }
}

struct TileSet {
  std::vector<uint32_t> a, b, c;   // codes: tiles * M*K, N*K, M*N
  std::vector<uint8_t> sa, sb;     // tiles * M*nsf, N*nsf
};

std::vector<uint32_t> run(const Combo& cb, const TileSet& ts, int tiles, int reps) {
  const int M = tc::M, N = tc::N, K = cb.K, nsf = cb.nsf();
  std::vector<uint32_t> d(static_cast<size_t>(tiles) * M * N);
  if (fake_gpu()) {  // host model in place of the GPU (see host_util.h)
    const mm::DotEngine e(cb.shape());
    for (int t = 0; t < tiles; ++t) {
      std::vector<uint32_t> dd(ts.c.begin() + static_cast<size_t>(t) * M * N, ts.c.begin() + static_cast<size_t>(t + 1) * M * N);
      for (int r = 0; r < reps; ++r)
        e.tile(M, N, &ts.a[static_cast<size_t>(t) * M * K], &ts.b[static_cast<size_t>(t) * N * K], dd.data(), dd.data(),
               nsf ? &ts.sa[static_cast<size_t>(t) * M * nsf] : nullptr, nsf ? &ts.sb[static_cast<size_t>(t) * N * nsf] : nullptr);
      std::copy(dd.begin(), dd.end(), d.begin() + static_cast<size_t>(t) * M * N);
    }
    return d;
  }
  std::vector<uint8_t> pa(static_cast<size_t>(tiles) * M * tc::ROWB), pb(static_cast<size_t>(tiles) * N * tc::ROWB);
  for (int t = 0; t < tiles; ++t) {
    for (int i = 0; i < M; ++i)
      pack_row(cb, cb.row->atype, &ts.a[(static_cast<size_t>(t) * M + i) * K], &pa[(static_cast<size_t>(t) * M + i) * tc::ROWB]);
    for (int j = 0; j < N; ++j)
      pack_row(cb, cb.row->btype, &ts.b[(static_cast<size_t>(t) * N + j) * K], &pb[(static_cast<size_t>(t) * N + j) * tc::ROWB]);
  }
  DevBuf<uint8_t> da, db, dsa, dsb;
  DevBuf<uint32_t> dc, dd;
  da.ensure(pa.size());
  db.ensure(pb.size());
  dc.ensure(ts.c.size());
  dd.ensure(ts.c.size());
  dsa.ensure(std::max<size_t>(1, ts.sa.size()));
  dsb.ensure(std::max<size_t>(1, ts.sb.size()));
  PROBES_CK(cudaMemcpy(da.p, pa.data(), pa.size(), cudaMemcpyHostToDevice));
  PROBES_CK(cudaMemcpy(db.p, pb.data(), pb.size(), cudaMemcpyHostToDevice));
  PROBES_CK(cudaMemcpy(dc.p, ts.c.data(), ts.c.size() * 4, cudaMemcpyHostToDevice));
  if (nsf) {
    PROBES_CK(cudaMemcpy(dsa.p, ts.sa.data(), ts.sa.size(), cudaMemcpyHostToDevice));
    PROBES_CK(cudaMemcpy(dsb.p, ts.sb.data(), ts.sb.size(), cudaMemcpyHostToDevice));
  }
  cb.launcher()(tiles, da.p, db.p, dc.p, dd.p, dsa.p, dsb.p, cb.idesc(cb.saturate), nsf, reps);
  PROBES_CK(cudaGetLastError());
  PROBES_CK(cudaDeviceSynchronize());
  PROBES_CK(cudaMemcpy(d.data(), dd.p, d.size() * 4, cudaMemcpyDeviceToHost));
  return d;
}

int digits(DType t) {
  switch (t) {
    case DType::F32: case DType::TF32: case DType::S32: return 8;
    case DType::F16: case DType::BF16: return 4;
    default: return 2;
  }
}

std::string list(const uint32_t* codes, int n, int digits_) {
  std::string s;
  for (int k = 0; k < n; ++k) {
    if (!codes[k]) continue;
    if (!s.empty()) s += ',';
    s += std::to_string(k) + ":" + hex(codes[k], digits_);
  }
  return s.empty() ? "-" : s;
}

// Probes that need block scales: one per scale block, for A and B; 0x7f (UE8M0 1.0) or 0x38
// (UE4M3 1.0) unless a probe sets them.
struct ScaledProbe {
  Probe p;
  std::vector<uint8_t> sa, sb;
};

std::vector<ScaledProbe> probes_for(const Combo& cb) {
  std::vector<ScaledProbe> out;
  const int nsf = cb.nsf();
  const uint8_t one = cb.st == mm::ScaleType::UE4M3 ? 0x38 : 0x7f;
  const ProbeTarget tgt{cb.row->atype, cb.row->btype, cb.row->dtype, cb.K,
                        cb.row->num.nfrac, cb.row->num.f32_out_frac};
  const bool mx4 = cb.row->kind == MmaKind::MXF4 || cb.row->kind == MmaKind::MXF4NVF4;
  // B1/B2/B9/B11: the generic probes through tcgen05 (mx4: window is bs_nfrac below the scales)
  if (cb.row->kind == MmaKind::I8) {
    for (auto& p : int_probes(tgt)) out.push_back({p, {}, {}});
  } else {
    ProbeTarget t2 = tgt;
    if (mx4) t2.nfrac = cb.row->num.bs_nfrac;
    for (auto& p : float_probes(t2)) out.push_back({p, std::vector<uint8_t>(nsf, one), std::vector<uint8_t>(nsf, one)});
  }
  if (cb.st == mm::ScaleType::UE8M0) {
    // B3: are the scale exponents folded into the product exponents before the window? A = [4,-4],
    // B = [4,4] scaled by 2^s cancel exactly; their nominal exponent 4 + s anchors the window, so
    // C = 1 survives iff 0 >= 4 + s - nfrac: s <= 21 for the 25-bit mxf8f6f4 window (s <= 31 for
    // the 35-bit mx4 window). Output 1.0 (kept) or +0 (truncated).
    for (int s = 16; s <= 40; ++s) {
      std::vector<uint8_t> sa(nsf, 0x7f), sb(nsf, 0x7f);
      sa[0] = static_cast<uint8_t>(127 + s / 2);
      sb[0] = static_cast<uint8_t>(127 + (s - s / 2));
      out.push_back({{"B3.s" + std::to_string(s), "cancelling pair scaled by 2^s, C=1: kept iff s <= window-4",
                      {V(4), V(-4)}, {V(4), V(4)}, V(1), 1}, sa, sb});
    }
    // B5: a NaN scale (0xff) in a block whose elements are all zero: NaN (MMA-Sim) or ignored?
    if (nsf > 1) {
      std::vector<uint8_t> sa(nsf, 0x7f), sb(nsf, 0x7f);
      sa[nsf - 1] = 0xff;
      out.push_back({{"B5.nanzero", "NaN scale on an all-zero block", {V(1)}, {V(1)}, V(0), 1}, sa, sb});
    }
    {
      std::vector<uint8_t> sa(nsf, 0x00), sb(nsf, 0x00);
      out.push_back({{"B5.e8m0min", "scales 2^-127 * 2^-127, C=0: 2^-254 underflows", {V(1)}, {V(1)}, V(0), 1}, sa, sb});
      std::vector<uint8_t> ha(nsf, 0xfe), hb(nsf, 0xfe);
      out.push_back({{"B6.overflow", "scales 2^127*2^127 * 6*6 -> +Inf?", {V(6)}, {V(6)}, V(0), 1}, ha, hb});
      out.push_back({{"B6.cancel", "scaled 2^254*36 - same: exact 0", {V(6), V(-6)}, {V(6), V(6)}, V(0), 1}, ha, hb});
    }
  }
  if (cb.st == mm::ScaleType::UE4M3) {
    std::vector<uint8_t> sa(nsf, 0x38), sb(nsf, 0x38);
    sa[nsf - 1] = 0x7f;  // B5: UE4M3 NaN
    out.push_back({{"B5.ue4m3nan", "UE4M3 NaN scale (0x7f) on an all-zero block", {V(1)}, {V(1)}, V(0), 1}, sa, sb});
    sa[nsf - 1] = 0x38;
    sa[0] = 0x00;  // zero scale
    out.push_back({{"B5.zeroscale", "UE4M3 zero scale: block contributes 0", {V(1)}, {V(1)}, V(1), 1}, sa, sb});
    sa[0] = 0xb8;  // B4(d): MSB set
    out.push_back({{"B4.msb", "UE4M3 0xb8 (MSB set) = 0x38?", {V(1)}, {V(1)}, V(0), 1}, sa, sb});
  }
  if (mx4 && nsf >= 2) {
    // B4(e): unit of exact reduction. Block 0 scales 2^-9 * 2^-9 (UE4M3 0x01 / UE8M0 2^-9): 12
    // products 0.5*0.5*2^-18 = 2^-20, three in each aligned group of 4; block 1 scales 2^8*2^8
    // with one product 2^14 cancelled by C = -2^14, so maxE = 16 and the window ends at 2^-19.
    //   unit 1 (per product): each 2^-20 truncates to 0 -> 0
    //   unit 4 (sf-tensor):   each group 3*2^-20 = 1.5 q -> 1 q: 4 q = 2^-17
    //   unit 16 (MMA-Sim):    12*2^-20 = 6 q -> 3*2^-18
    const int blk = cb.block;
    std::vector<El> a(cb.K, V(0));
    for (int k = 0; k < 16; ++k)
      if (k % 4 != 3) a[k] = V(0.5);
    a[blk] = V(0.5);
    std::vector<uint8_t> sa(nsf, one), sb(nsf, one);
    if (cb.st == mm::ScaleType::UE4M3) sa[0] = sb[0] = 0x01, sa[1] = sb[1] = 0x78;
    else sa[0] = sb[0] = 127 - 9, sa[1] = sb[1] = 127 + 8;
    // (with 32-element scale blocks the 12 products sit in the first 16 k of block 0)
    out.push_back({{"B4.unit", "exact-reduction unit: 1 -> 0, 4 -> 2^-17, 16 -> 3*2^-18", a, a,
                    V(-p2(14)), 1}, sa, sb});
    // B4(b): two chunk sums of +-576 (16 * 6*6) cancel; C = 2^-s survives iff s <= bs_nfrac
    // (window anchored at the scale exponents, 0 here, not at the chunks' magnitude 2^9).
    for (int sh = 30; sh <= 40; ++sh) {
      std::vector<El> a(cb.K, V(0)), b(cb.K, V(0));
      for (int k = 0; k < 32; ++k) a[k] = V(6), b[k] = V(k < 16 ? 6 : -6);
      out.push_back({{"B4.big.s" + std::to_string(sh), "576 - 576 + C=2^-s", a, b, V(p2(-sh)), 1},
                     std::vector<uint8_t>(nsf, one), std::vector<uint8_t>(nsf, one)});
    }
  }
  if (cb.sid) {
    // B7 scale-input-d: D*2^-s exact? before alignment? underflow?
    out.push_back({{"B7.exact", "C=1+2^-23, no products: (1+2^-23)*2^-s", {}, {}, R(0x3f800001u), 1}, {}, {}});
    out.push_back({{"B7.sub", "C=2^-126: subnormal after scaling?", {}, {}, R(0x00800000u), 1}, {}, {}});
    out.push_back({{"B7.window", "C=2^10 scaled, product 2^-14: window anchored before/after scaling",
                    {V(p2(-7))}, {V(p2(-7))}, V(p2(10)), 1}, {}, {}});
  }
  return out;
}

const std::vector<Hyp>& tc_hypotheses() {
  static const std::vector<Hyp> h = [] {
    std::vector<Hyp> v = hypotheses();
    v.push_back({"bs_unit=4(sf-tensor)", {"bs_unit=4"}});
    v.push_back({"bs_unit=1", {"bs_unit=1"}});
    v.push_back({"bs_zero_units_out", {"bs_zero_units_in_max=0"}});
    v.push_back({"bs_nfrac=34", {"bs_nfrac=34"}});
    v.push_back({"bs_nfrac=36", {"bs_nfrac=36"}});
    return v;
  }();
  return h;
}

void layout_check(const Combo& cb) {
  const int M = tc::M, N = tc::N, K = cb.K, nsf = cb.nsf();
  TileSet ts;
  ts.a.resize(M * K);
  ts.b.resize(N * K);
  ts.c.resize(M * N);
  const bool isint = cb.row->kind == MmaKind::I8;
  const double vals[] = {0, 1, -1, 2, 0.5, -2, 1.5, -0.5};
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      const double x = isint ? (i * 7 + k * 3) % 11 - (cb.row->atype == DType::S8 ? 5 : 0) : vals[(i * 5 + k * 3 + i * k) % 8];
      ts.a[i * K + k] = encode(cb.row->atype, x).value_or(0);
    }
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < K; ++k) {
      const double x = isint ? (j * 5 + k) % 13 - (cb.row->btype == DType::S8 ? 6 : 0) : vals[(j * 3 + k * 7 + 2 * j * k + 1) % 8];
      ts.b[j * K + k] = encode(cb.row->btype, x).value_or(0);
    }
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      ts.c[i * N + j] = encode(cb.row->dtype, isint ? (i * 31 + j * 17) % 1000 - 500 : ((i + 2 * j) % 9) * 0.25 - 1).value_or(0);
  // scales: powers of two that differ by row/column and block (exact)
  for (int i = 0; i < M * nsf; ++i) ts.sa.push_back(cb.st == mm::ScaleType::UE4M3 ? 0x30 + 8 * (i % 3) : 126 + i % 3);
  for (int i = 0; i < N * nsf; ++i) ts.sb.push_back(cb.st == mm::ScaleType::UE4M3 ? 0x38 + 8 * (i % 2) : 127 + i % 2);
  const std::vector<uint32_t> hw = run(cb, ts, 1, 1);
  const mm::DotEngine e(cb.shape());
  std::vector<uint32_t> want(M * N);
  e.tile(M, N, ts.a.data(), ts.b.data(), ts.c.data(), want.data(), nsf ? ts.sa.data() : nullptr,
         nsf ? ts.sb.data() : nullptr);
  int bad = 0;
  std::string first;
  for (int o = 0; o < M * N; ++o)
    if (hw[o] != want[o] && bad++ == 0)
      first = "(" + std::to_string(o / N) + "," + std::to_string(o % N) + ") hw=" + hex(hw[o], 8) + " model=" + hex(want[o], 8);
  std::printf("LAYOUT\t%s\t%s\t%d/%d outputs differ %s\n", cb.name.c_str(), bad ? "FAIL" : "ok", bad, M * N, first.c_str());
}

void run_probes(const Combo& cb) {
  const int M = tc::M, N = tc::N, K = cb.K, nsf = cb.nsf();
  const int dd = cb.row->dtype == DType::F16 ? 4 : 8;
  std::vector<ScaledProbe> ps = probes_for(cb);
  std::vector<std::pair<std::string, std::optional<mm::DotEngine>>> engines;
  engines.emplace_back("row", mm::DotEngine(cb.shape()));
  for (const Hyp& h : tc_hypotheses()) {
    std::optional<mm::DotEngine> e;
    try {
      mm::DotShape s = cb.shape(h.sets);
      if (mm::check_shape(s).empty()) e.emplace(s);
    } catch (const std::exception&) {
    }
    engines.emplace_back(h.name, std::move(e));
  }
  std::map<int, std::vector<size_t>> by_reps;
  std::vector<std::vector<uint32_t>> av(ps.size()), bv(ps.size());
  std::vector<uint32_t> cw(ps.size());
  std::vector<bool> ok(ps.size(), true);
  for (size_t p = 0; p < ps.size(); ++p) {
    bool good = static_cast<int>(ps[p].p.a.size()) <= K && static_cast<int>(ps[p].p.b.size()) <= K;
    av[p].assign(K, 0);
    bv[p].assign(K, 0);
    const auto enc = [&](const El& e, DType t) -> uint32_t {
      if (e.raw) return e.code;
      const auto c = encode(t, e.v);
      if (!c) good = false;
      return c.value_or(0);
    };
    for (size_t k = 0; k < ps[p].p.a.size() && good; ++k) av[p][k] = enc(ps[p].p.a[k], cb.row->atype);
    for (size_t k = 0; k < ps[p].p.b.size() && good; ++k) bv[p][k] = enc(ps[p].p.b[k], cb.row->btype);
    cw[p] = enc(ps[p].p.c, cb.row->dtype);
    if (nsf && (ps[p].sa.size() != static_cast<size_t>(nsf))) ps[p].sa.assign(nsf, cb.st == mm::ScaleType::UE4M3 ? 0x38 : 0x7f), ps[p].sb = ps[p].sa;
    ok[p] = good;
    if (good) by_reps[ps[p].p.reps].push_back(p);
  }
  std::vector<uint32_t> hw(ps.size());
  for (const auto& [reps, idx] : by_reps) {
    TileSet ts;
    for (size_t p : idx) {
      std::vector<uint32_t> A(M * K, 0), B(N * K, 0), C(M * N, 0);
      std::copy(av[p].begin(), av[p].end(), A.begin());
      std::copy(bv[p].begin(), bv[p].end(), B.begin());
      C[0] = cw[p];
      ts.a.insert(ts.a.end(), A.begin(), A.end());
      ts.b.insert(ts.b.end(), B.begin(), B.end());
      ts.c.insert(ts.c.end(), C.begin(), C.end());
      for (int i = 0; i < M; ++i) ts.sa.insert(ts.sa.end(), ps[p].sa.begin(), ps[p].sa.end());
      for (int j = 0; j < N; ++j) ts.sb.insert(ts.sb.end(), ps[p].sb.begin(), ps[p].sb.end());
    }
    const std::vector<uint32_t> d = run(cb, ts, static_cast<int>(idx.size()), reps);
    for (size_t i = 0; i < idx.size(); ++i) hw[idx[i]] = d[i * M * N];
  }
  std::vector<int> matched(engines.size(), 0);
  int n = 0;
  for (size_t p = 0; p < ps.size(); ++p) {
    if (!ok[p]) continue;
    ++n;
    std::string line = "PROBE\t" + cb.name + "\t" + ps[p].p.id + "\thw=" + hex(hw[p], dd);
    for (size_t e = 0; e < engines.size(); ++e) {
      if (!engines[e].second) {
        line += "\t" + engines[e].first + "=-";
        continue;
      }
      uint32_t m = cw[p];
      for (int r = 0; r < ps[p].p.reps; ++r)
        m = engines[e].second->dot(av[p].data(), bv[p].data(), m, nsf ? ps[p].sa.data() : nullptr, nsf ? ps[p].sb.data() : nullptr);
      matched[e] += m == hw[p];
      line += "\t" + engines[e].first + "=" + hex(m, dd) + (m == hw[p] ? "" : "*");
    }
    line += "\ta=" + list(av[p].data(), K, digits(cb.row->atype)) + "\tb=" + list(bv[p].data(), K, digits(cb.row->btype)) + "\tc=" + hex(cw[p], dd);
    if (nsf) {
      std::string sa, sb;
      for (int i = 0; i < nsf; ++i) sa += hex(ps[p].sa[i], 2) + (i + 1 < nsf ? "," : ""), sb += hex(ps[p].sb[i], 2) + (i + 1 < nsf ? "," : "");
      line += "\tsa=" + sa + "\tsb=" + sb;
    }
    line += "\t# " + ps[p].p.desc;
    std::printf("%s\n", line.c_str());
  }
  std::string sum = "SUMMARY\t" + cb.name + "\tprobes=" + std::to_string(n), all;
  for (size_t e = 0; e < engines.size(); ++e) {
    if (!engines[e].second) continue;
    sum += "\t" + engines[e].first + "=" + std::to_string(matched[e]);
    if (matched[e] == n) {
      if (!all.empty()) all += ',';
      all += engines[e].first;
    }
  }
  std::printf("%s\tall=%s\n", sum.c_str(), all.empty() ? "NONE" : all.c_str());
}

void run_diff(const Combo& cb, int index, uint64_t outputs) {
  const int M = tc::M, N = tc::N, K = cb.K, nsf = cb.nsf(), MN = M * N;
  const mm::DotEngine e(cb.shape());
  const uint64_t tiles = (outputs + MN - 1) / MN;
  uint64_t total = 0, same = 0;
  int printed = 0;
  for (uint64_t t0 = 0; t0 < tiles; t0 += 256) {
    const int nt = static_cast<int>(std::min<uint64_t>(256, tiles - t0));
    TileSet ts;
    ts.a.resize(static_cast<size_t>(nt) * M * K);
    ts.b.resize(static_cast<size_t>(nt) * N * K);
    ts.c.resize(static_cast<size_t>(nt) * MN);
    std::vector<int> regime(nt);
    for (int t = 0; t < nt; ++t) {
      const uint64_t tile = t0 + t;
      regime[t] = static_cast<int>(tile % kRegimes);
      tile_inputs(0x7c605, index, tile, regime[t], cb.row->atype, cb.row->btype, cb.row->dtype, M, N, K,
                  &ts.a[static_cast<size_t>(t) * M * K], &ts.b[static_cast<size_t>(t) * N * K], &ts.c[static_cast<size_t>(t) * MN]);
      Stream r{mix(tile * 77 + index)};
      for (int i = 0; i < (M + N) * nsf; ++i) {
        uint8_t s = cb.st == mm::ScaleType::UE4M3 ? static_cast<uint8_t>(r.below(0x7f)) : static_cast<uint8_t>(100 + r.below(55));
        if (regime[t] == kSpecials && r.chance(5)) s = cb.st == mm::ScaleType::UE4M3 ? 0x7f : 0xff;
        (i < M * nsf ? ts.sa : ts.sb).push_back(s);
      }
    }
    const std::vector<uint32_t> hw = run(cb, ts, nt, 1);
    for (int t = 0; t < nt; ++t) {
      std::vector<uint32_t> want(MN);
      e.tile(M, N, &ts.a[static_cast<size_t>(t) * M * K], &ts.b[static_cast<size_t>(t) * N * K], &ts.c[static_cast<size_t>(t) * MN], want.data(),
             nsf ? &ts.sa[static_cast<size_t>(t) * M * nsf] : nullptr, nsf ? &ts.sb[static_cast<size_t>(t) * N * nsf] : nullptr);
      for (int o = 0; o < MN; ++o) {
        const uint32_t h = hw[static_cast<size_t>(t) * MN + o];
        ++total;
        same += h == want[o];
        if (h != want[o] && printed++ < 5)
          std::printf("MISMATCH\t%s\ttile=%llu\tregime=%s\trow=%d\tcol=%d\thw=%s\tmodel=%s\n", cb.name.c_str(),
                      static_cast<unsigned long long>(t0 + t), regime_name(regime[t]), o / N, o % N,
                      hex(h, 8).c_str(), hex(want[o], 8).c_str());
      }
    }
  }
  std::printf("DIFF\t%s\toutputs=%llu\tidentical=%llu\n", cb.name.c_str(), static_cast<unsigned long long>(total),
              static_cast<unsigned long long>(same));
  std::fflush(stdout);
}

}  // namespace
}  // namespace probes

int main(int argc, char** argv) {
  using namespace probes;
  std::string filter;
  uint64_t diff = 1000000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--filter") filter = argv[i + 1];
    else if (k == "--diff") diff = std::strtoull(argv[i + 1], nullptr, 10);
  }
  print_environment("tcgen05_probes");
  const std::vector<Combo> cs = make_combos();
  for (size_t i = 0; i < cs.size(); ++i) {
    if (!filter.empty() && cs[i].name.find(filter) == std::string::npos) continue;
    layout_check(cs[i]);
    run_probes(cs[i]);
    if (diff) run_diff(cs[i], static_cast<int>(i), diff);
    std::fflush(stdout);
  }
  return 0;
}
