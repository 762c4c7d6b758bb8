// Fuzz target: the descriptor decoders and validators of isa/descriptors on arbitrary words: the
// shared-memory matrix descriptor (sm_100 and sm_90 forms), the instruction descriptor of every
// tcgen05 kind, TMEM addresses, the 128-byte tensor map (decode, validate, warnings, re-encode,
// tensormap.replace of every field). They must never assert or crash: every value decodes, and
// what is wrong with it is a Violation.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "isa/arch.h"
#include "isa/descriptors/instr_desc.h"
#include "isa/descriptors/smem_desc.h"
#include "isa/descriptors/tensor_map.h"
#include "isa/descriptors/tmem_addr.h"
#include "isa/mma_kind.h"

using namespace tcsim::isa;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint8_t buf[160] = {};
  std::memcpy(buf, data, size < sizeof buf ? size : sizeof buf);
  uint64_t w64;
  uint32_t w32, w32b;
  std::memcpy(&w64, buf, 8);
  std::memcpy(&w32, buf + 8, 4);
  std::memcpy(&w32b, buf + 12, 4);
  const uint8_t sel = buf[16];
  const Arch arch = sel & 1 ? Arch::Sm90a : Arch::Sm100a;

  const SmemDesc sd = decode_smem_desc(w64, arch);
  (void)validate_smem_desc(sd, arch);
  (void)encode_smem_desc(sd, arch);
  (void)smem_desc_layout_name(sd);
  SmemDescContext sc;
  sc.arch = arch;
  sc.major = sel & 2 ? Major::MN : Major::K;
  (void)validate_smem_desc(sd, sc);

  const MmaKind kinds[] = {MmaKind::F16, MmaKind::TF32, MmaKind::F8F6F4, MmaKind::I8,
                           MmaKind::MXF8F6F4, MmaKind::MXF4, MmaKind::MXF4NVF4};
  const MmaKind kind = kinds[(sel >> 2) % 7];
  const InstrDesc id = decode_instr_desc(w32, kind);
  InstrDescContext ic;
  ic.arch = arch;
  ic.cta_group = sel & 0x40 ? 2 : 1;
  ic.ws = (sel & 0x80) != 0;
  (void)validate_instr_desc(id, ic);
  (void)encode_instr_desc(id);
  const SmemDesc sd2 = decode_smem_desc(w64 ^ 0x5555, arch);
  (void)validate_mma_descriptors(id, ic, (sel & 0x20) ? nullptr : &sd, &sd2);

  const TmemAddr ta = decode_tmem_addr(w32b);
  (void)validate_tmem_addr(ta, arch);
  (void)encode_tmem_addr(ta);

  if (size >= 32) {
    const std::span<const uint8_t> tm(buf + 32, 128);
    auto p = decode_tensor_map(tm, arch);
    if (p) {
      (void)validate_tensor_map(*p, arch);
      (void)tensor_map_warnings(*p);
      (void)validate_tensor_map_use(*p, sel & 1 ? TmaDirection::Store : TmaDirection::Load);
      (void)encode_tensor_map(*p, arch);
    }
    const TensorMapField fields[] = {TensorMapField::GlobalAddress, TensorMapField::Rank,
                                     TensorMapField::BoxDim,        TensorMapField::GlobalDim,
                                     TensorMapField::GlobalStride,  TensorMapField::ElementStride,
                                     TensorMapField::ElemType,      TensorMapField::Interleave,
                                     TensorMapField::SwizzleMode,   TensorMapField::SwizzleAtomicity,
                                     TensorMapField::FillMode};
    (void)tensor_map_replace(tm, fields[buf[17] % 11], buf[18] % 8, w64);
  }
  return 0;
}
