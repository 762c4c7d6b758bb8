#include "sim/memory/shared_operand.h"

#include <fmt/format.h>

#include "sim/address_space.h"
#include "sim/report/report.h"

namespace tcsim::sim::mem {

uint64_t shared_operand(ExecCtx& c, int lane, uint64_t addr, bool generic, const char* what) {
  const bool in_window = addr::classify(addr) == addr::Window::Shared;
  const uint64_t low = addr & 0xffffffffull;
  if (generic) {
    if (in_window) return addr - addr::kSharedWindow;
    if (addr <= 0xffffffffull) {
      report(c, Rule::SharedAddressAsGeneric, lane, [&] {
        return fmt::format("{}: the generic address operand holds 0x{:x}, a 32-bit shared-memory address (not a "
                           "generic one: cvta.shared would make it 0x{:x}); the hardware uses the low 32 bits as "
                           "the shared address, and so does tcsim",
                           what, addr, addr::kSharedWindow + addr);
      });
      return low;
    }
  } else {
    if (addr <= 0xffffffffull) return addr;
    if (in_window) {
      report(c, Rule::GenericAddressAsShared, lane, [&] {
        return fmt::format("{}: the shared-memory address operand holds the generic address 0x{:x}; the hardware "
                           "uses its low 32 bits, shared address 0x{:x}, and so does tcsim (cvta.to.shared makes "
                           "the shared address explicit)",
                           what, addr, low);
      });
      return addr - addr::kSharedWindow;
    }
  }
  c.fail(lane, fmt::format("{}: the {}address 0x{:x} is not in shared memory (the generic shared window, or a 32-bit "
                           "shared address; its low 32 bits would name shared address 0x{:x}: undefined, PTX ISA "
                           "§6.4.1)",
                           what, generic ? "generic " : "", addr, low));
}

}  // namespace tcsim::sim::mem
