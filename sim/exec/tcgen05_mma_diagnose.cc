// The swizzle-bug diagnosis of tcgen05.mma (kernels/tcgen05/README.md "Swizzle-bug demo"): when
// an operand in shared memory was loaded by TMA (sim/units/smem_origin.h records where every
// 16-byte chunk came from), the elements the shared-memory descriptor (PTX ISA §9.7.16.4.1) makes
// the tensor core read must form a consistent tile of the global tensor:
//
//   K-major:  global(X[r][k]) = global(X[0][0]) + r * pitch + k * element bytes
//   MN-major: global(X[r][k]) = global(X[0][0]) + k * pitch + r * element bytes
//
// (X[0][0] is taken as right: the start address is the kernel's business.) The first element in
// row-major order that breaks this is a misread: the report names it ("A[1][0] expected, A[0][8]
// read", the read element located by its global address relative to X[0][0]) and then tries every
// single-field change of the descriptor — the layout type (bits 61-63), SBO (bits 32-45), LBO
// (bits 16-29), the base offset (bits 49-51) — and names the field whose change makes every read
// consistent, with its value and the value that works. The report is a checker warning: the MMA
// still computes with what it read, as the hardware would.
#include <set>

#include <fmt/format.h>

#include "isa/descriptors/smem_desc.h"
#include "isa/descriptors/tensor_map.h"
#include "isa/layouts/canonical_layout.h"
#include "sim/report/report.h"
#include "sim/exec/tcgen05_common.h"
#include "sim/launch_state.h"
#include "sim/units/smem_origin.h"

namespace tcsim::sim::tcgen05 {
namespace {

struct Misread {
  bool consistent = true;  // false: a misread was found
  bool unknown = false;    // some element's bytes have no recorded origin: no verdict
  uint32_t r = 0, k = 0;
  uint64_t expected = 0, got = 0;
};

// Checks the plan of `rows` x K elements against the origin map.
Misread check(const SmemOrigin& o, const std::vector<isa::SmemLocation>& plan, uint32_t rows, uint32_t K,
              uint32_t eb, isa::Major major) {
  Misread m;
  const SmemOriginChunk* c0 = o.chunk(plan[0].byte);
  if (!c0) return {true, true};
  const uint64_t g00 = o.global_of(plan[0].byte);
  const uint64_t pitch = c0->pitch;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t k = 0; k < K; ++k) {
      const uint32_t b = plan[size_t{r} * K + k].byte;
      const uint64_t g = o.global_of(b);
      if (!g) return {true, true};
      const uint64_t want = major == isa::Major::K ? g00 + r * pitch + uint64_t{k} * eb : g00 + uint64_t{k} * pitch + uint64_t{r} * eb;
      if (g != want) return {false, false, r, k, want, g};
    }
  return m;
}

std::optional<std::vector<isa::SmemLocation>> plan_for(uint64_t raw, isa::Arch arch, isa::ElementFormat fmt,
                                                       isa::Major major, uint32_t rows, uint32_t K, uint32_t smem) {
  const isa::SmemDesc sd = isa::decode_smem_desc(raw, arch);
  auto L = isa::CanonicalLayout::make(sd, fmt, major);
  if (!L || (L->max_k() && K > L->max_k())) return std::nullopt;
  std::vector<isa::SmemLocation> plan(size_t{rows} * K);
  L->locate_tile(0, rows, 0, K, plan.data());
  for (const auto& l : plan)
    if (l.byte >= smem) return std::nullopt;
  return plan;
}

const char* tma_swizzle_name(uint8_t s) {
  switch (s) {
    case 0: return "no";
    case 1: return "the 32B";
    case 2: return "the 64B";
    case 3: return "the 128B";
    default: return "a 128B-atom";
  }
}

uint64_t with_field(uint64_t raw, int lo, int width, uint64_t v) {
  const uint64_t mask = ((uint64_t{1} << width) - 1) << lo;
  return (raw & ~mask) | ((v << lo) & mask);
}

}  // namespace

bool misreads(const SmemOrigin& o, const char*, isa::Major major, isa::ElementFormat fmt, uint32_t rows, uint32_t K,
              const std::vector<isa::SmemLocation>& plan) {
  if (o.empty() || fmt.bits < 8 || plan.empty()) return false;
  const Misread m = check(o, plan, rows, K, fmt.bits / 8, major);
  return !m.consistent && !m.unknown;
}

std::string misread_report(const SmemOrigin& o, uint32_t smem, const char* name, uint64_t raw, isa::Arch arch,
                          isa::Major major, isa::ElementFormat fmt, uint32_t rows, uint32_t K,
                          const std::vector<isa::SmemLocation>& plan, const std::string& tensor_map) {
  if (o.empty() || fmt.bits < 8 || plan.empty()) return {};
  const uint32_t eb = fmt.bits / 8;
  const Misread m = check(o, plan, rows, K, eb, major);
  if (m.consistent) return {};
  const SmemOriginChunk* c0 = o.chunk(plan[0].byte);
  const int64_t d = static_cast<int64_t>(m.got) - static_cast<int64_t>(o.global_of(plan[0].byte));
  const int64_t pitch = c0->pitch;
  auto floordiv = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  int64_t rr, kk;
  if (major == isa::Major::K) {
    rr = floordiv(d, pitch);
    kk = (d - rr * pitch) / eb;
  } else {
    kk = floordiv(d, pitch);
    rr = (d - kk * pitch) / eb;
  }
  const isa::SmemDesc sd = isa::decode_smem_desc(raw, arch);
  std::string msg = fmt::format(
      "tcgen05.mma operand {} (descriptor 0x{:016x}: {}-major, layout {}, LBO {} B, SBO {} B, base offset {}) "
      "misreads the tile TMA loaded{}: {}[{}][{}] expected (global 0x{:x}), {}[{}][{}] read (global 0x{:x}), the "
      "first misread element in row order of this MMA",
      name, raw, major == isa::Major::K ? "K" : "MN", isa::smem_desc_layout_name(sd), sd.lbo, sd.sbo,
      sd.base_offset, tensor_map.empty() ? std::string() : " through " + tensor_map, name, m.r, m.k, m.expected,
      name, rr, kk, m.got);
  // Which single field, changed, reads every element where TMA put it?
  std::string fix;
  auto works = [&](uint64_t cand) {
    auto p = plan_for(cand, arch, fmt, major, rows, K, smem);
    if (!p) return false;
    const Misread x = check(o, *p, rows, K, eb, major);
    return x.consistent && !x.unknown;
  };
  for (int code : {0, 1, 2, 4, 6}) {
    if (code == sd.raw_layout_code) continue;
    const uint64_t cand = with_field(raw, 61, 3, static_cast<uint64_t>(code));
    if (works(cand)) {
      fix = fmt::format("descriptor bits 61-63 (layout type) = {} ({}), but TMA wrote these bytes with {} swizzle{}: "
                        "layout type {} ({}) reads every element where TMA put it",
                        sd.raw_layout_code, isa::smem_desc_layout_name(sd), tma_swizzle_name(c0->swizzle),
                        tensor_map.empty() ? std::string() : fmt::format(" ({} field swizzle)", tensor_map), code,
                        isa::smem_desc_layout_name(isa::decode_smem_desc(cand, arch)));
      break;
    }
  }
  struct Field {
    const char* label;
    int lo, width;
    uint32_t now;
    bool bytes;  // the field holds bytes >> 4
  };
  const Field fields[] = {{"bits 32-45 (stride byte offset, SBO)", 32, 14, sd.sbo, true},
                          {"bits 16-29 (leading byte offset, LBO)", 16, 14, sd.lbo, true},
                          {"bits 49-51 (matrix base offset)", 49, 3, sd.base_offset, false}};
  for (const Field& f : fields) {
    if (!fix.empty()) break;
    const uint32_t limit = f.bytes ? 1024 : 8;  // SBO/LBO candidates up to 16 KiB
    for (uint32_t v = 0; v < limit && fix.empty(); ++v) {
      const uint64_t cand = with_field(raw, f.lo, f.width, v);
      if (cand == raw || !works(cand)) continue;
      fix = f.bytes ? fmt::format("descriptor {} = {} B; {} B reads every element where TMA put it", f.label, f.now,
                                  v * 16)
                    : fmt::format("descriptor {} = {}; {} reads every element where TMA put it", f.label, f.now, v);
    }
  }
  msg += fix.empty() ? "; no single descriptor field change makes every read consistent (start address? a tile "
                       "layout TMA did not produce?)"
                     : "; " + fix;
  return msg + " (PTX ISA §9.7.16.4.1 Table 40, §9.7.16.3 canonical layouts)";
}

namespace {

// "tensor map `tmA`" (a label the launch gave to its bytes in the parameter buffer) or "the tensor map
// at kernel-parameter offset N" for the map whose tensor holds global address `g` with swizzle
// `swizzle` (SmemOriginChunk numbering), or empty. Called only when a report is written.
std::string tensor_map_name(const LaunchState& L, uint64_t g, uint8_t swizzle) {
  auto holds = [&](uint32_t off) -> bool {
    if (off + isa::kTensorMapBytes > L.params.size()) return false;
    auto p = isa::decode_tensor_map(std::span(L.params).subspan(off, isa::kTensorMapBytes));
    if (!p || static_cast<uint8_t>(p->swizzle) != swizzle || g < p->global_address) return false;
    uint64_t extent = p->rank > 1 ? p->global_strides[p->rank - 2] * p->global_dim[p->rank - 1] : p->global_dim[0] * 16;
    return g - p->global_address < extent;
  };
  for (const LaunchConfig::ParamLabel& l : L.cfg.param_labels)
    if (l.size == isa::kTensorMapBytes && holds(l.offset)) return fmt::format("tensor map `{}`", l.name);
  for (uint32_t off = 0; off + isa::kTensorMapBytes <= L.params.size(); off += 64)
    if (holds(off)) return fmt::format("the tensor map at kernel-parameter offset {}", off);
  return {};
}

}  // namespace

void diagnose_operand(ExecCtx& c, int lane, const Cta& cta, const char* name, uint64_t raw, isa::Arch arch,
                      isa::Major major, isa::ElementFormat fmt, uint32_t rows, uint32_t K,
                      const std::vector<isa::SmemLocation>& plan, std::map<std::pair<uint64_t, char>, bool>& seen) {
  const SmemOrigin* o = cta.smem_origin_if_any();
  if (!o || o->empty()) return;
  // One verdict per descriptor value and operand per CTA (a pipelined kernel reuses a few values);
  // every MMA that misreads is counted in the finding of its (instruction, operand).
  auto [it, fresh] = seen.try_emplace({raw, name[0]}, false);
  if (fresh) it->second = misreads(*o, name, major, fmt, rows, K, plan);
  if (!it->second) return;
  report(c, Rule::MmaDescriptorMisread, lane, [&] {
    const SmemOriginChunk* c0 = plan.empty() ? nullptr : o->chunk(plan[0].byte);
    const std::string map = c0 ? tensor_map_name(*c.launch, o->global_of(plan[0].byte), c0->swizzle) : std::string();
    return misread_report(*o, cta.smem_bytes(), name, raw, arch, major, fmt, rows, K, plan, map);
  }, kNoSite, static_cast<uint32_t>(name[0]));
}

}  // namespace tcsim::sim::tcgen05
