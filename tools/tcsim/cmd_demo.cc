// tcsim demo: a tour of what the tensor core reads in the bundled Blackwell GEMM
// (kernels/tcgen05/gemm.cu, gemm_bf16_f32: 128x256 bf16 tiles, K-major, TMA 128B swizzle, f32 D
// in TMEM). It encodes the descriptors the kernel builds, decodes them field by field, checks that
// the MMA reads every element TMA wrote, and then shows how tcsim explains the kernel's two
// deliberate bugs (README "swizzle-bug demo"). No arguments; exit 0.
#include <fmt/core.h>

#include "isa/descriptors/instr_desc.h"
#include "isa/descriptors/smem_desc.h"
#include "isa/descriptors/tmem_addr.h"
#include "isa/layouts/layout_check.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {

using namespace tcsim::isa;

// A stage's A tile in the kernel's ring: 128 rows x 64 bf16 (128 B per row) at smem 0x400,
// 1024-byte aligned as TMA's 128B swizzle wants; SBO = 8 rows x 128 B (PTX ISA §9.7.16.4.1).
SmemDesc a_tile_desc(SwizzleMode layout, uint32_t sbo) {
  SmemDesc d;
  d.start_address = 0x400;
  d.lbo = 16;  // unused for swizzled K-major layouts: "assumed 1" (§9.7.16.3.1.1)
  d.sbo = sbo;
  d.version = 1;
  d.layout = layout;
  return d;
}

void check(const char* title, const SmemDesc& desc) {
  TmaMmaTile tile;
  tile.tma_swizzle = TmaSwizzle::B128;
  tile.box0 = 64;  // inner box dimension: K (64 bf16 = 128 bytes, one swizzle span)
  tile.box1 = 128;
  tile.elem = dense_format(16);
  tile.desc = desc;
  tile.major = Major::K;
  auto report = check_tma_mma_layout(tile, 3);
  fmt::print("\n== {}\n", title);
  if (!report) {
    fmt::print("  cannot lay out: {}\n", report.error().message);
    return;
  }
  fmt::print("  TMA: {}\n  MMA: {}\n", report->tma, report->mma);
  if (report->consistent) {
    fmt::print("  consistent: all {} elements the MMA reads are the ones TMA wrote\n",
               report->elements);
    return;
  }
  fmt::print("  INCONSISTENT: {} of {} elements misread; first:\n", report->wrong, report->elements);
  for (const auto& m : report->first) {
    if (m.found)
      fmt::print("    A[{}][{}] expected, A[{}][{}] read\n", m.mn, m.k, m.found->first, m.found->second);
    else
      fmt::print("    A[{}][{}] expected, nothing TMA wrote was read\n", m.mn, m.k);
  }
  fmt::print("  likely cause: {}\n", report->cause);
}

int run_demo(Args args) {
  if (!args.empty()) throw UsageError("demo takes no arguments");
  InstrDesc id;
  id.kind = MmaKind::F16;
  id.m = 128;
  id.n = 256;
  id.k = 16;
  id.a_type = id.b_type = DType::BF16;
  id.d_type = DType::F32;
  const auto idesc = encode_instr_desc(id);
  if (!idesc) throw UsageError(idesc.error().message);
  const auto adesc = encode_smem_desc(a_tile_desc(SwizzleMode::B128, 1024), Arch::Sm100a);
  if (!adesc) throw UsageError(adesc.error().message);

  fmt::print("tcsim demo: the descriptors of kernels/tcgen05/gemm.cu (gemm_bf16_f32)\n");
  fmt::print("\n== instruction descriptor 0x{:08x} (kind::f16)\n{}", *idesc,
             instr_desc_fields_text(*idesc, MmaKind::F16));
  fmt::print("\n== A-tile shared-memory descriptor 0x{:016x}\n{}", *adesc,
             smem_desc_fields_text(*adesc, Arch::Sm100a));
  fmt::print("\n== accumulator TMEM address 0x{:08x} (second buffer: column 256)\n{}", 0x100u,
             tmem_addr_fields_text(0x100));
  check("the kernel as written: TMA box 64x128 bf16, 128B swizzle; descriptor SW128, SBO 1024",
        decode_smem_desc(*adesc, Arch::Sm100a));
  check("bug=1: descriptor layout SWIZZLE_NONE", a_tile_desc(SwizzleMode::None, 1024));
  check("bug=2: SBO 512 instead of 1024", a_tile_desc(SwizzleMode::B128, 512));
  fmt::print("\nNext: tcsim decode/encode/layout/check-layout on your own values (tcsim help).\n");
  return 0;
}

}  // namespace

TCSIM_COMMAND(demo, "demo    (a tour of the bundled GEMM's descriptors and two layout bugs)",
              run_demo);

}  // namespace tcsim::cli
