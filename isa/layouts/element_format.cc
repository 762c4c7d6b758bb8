#include "isa/layouts/element_format.h"

#include <fmt/core.h>

namespace tcsim::isa {

Expected<ElementFormat> smem_element_format(DType type, std::optional<MmaKind> kind) {
  const int bits = dtype_bits(type);
  const bool mxf4 = kind && (*kind == MmaKind::MXF4 || *kind == MmaKind::MXF4NVF4);
  const bool f8f6f4 = !kind || *kind == MmaKind::F8F6F4 || *kind == MmaKind::MXF8F6F4;
  if (bits == 4 || bits == 6) {
    if (bits == 4 && mxf4) return dense_format(4);  // §9.7.16.10.4.6: two e2m1 per byte
    if (f8f6f4) return padded_format(bits);         // §9.7.16.10.4.4: .b4x16_p64 / .b6x16_p32
    return Error{fmt::format(
        "{} is a {}-bit type: only kind::f8f6f4 / mxf8f6f4{} accept it (PTX ISA §9.7.16.10.4), "
        "not kind::{}",
        dtype_name(type), bits, bits == 4 ? " / mxf4 / mxf4nvf4" : "", kind_name(*kind))};
  }
  if (mxf4)
    return Error{fmt::format("kind::{} takes only e2m1 operands (PTX ISA §9.7.16.10.4.6), not {}",
                             kind_name(*kind), dtype_name(type))};
  if (bits == 8 || bits == 16 || bits == 32 || bits == 64) return dense_format(bits);
  return Error{fmt::format("{} ({} bits) has no shared-memory operand format", dtype_name(type),
                           bits)};
}

std::string describe_format(ElementFormat f) {
  if (f.padded())
    return fmt::format("{}-bit, {} per 16 B unit + {} B padding", f.bits, f.per_16b,
                       16 - f.data_bytes_per_16b());
  return fmt::format("{}-bit, {} per 16 B unit", f.bits, f.per_16b);
}

}  // namespace tcsim::isa
