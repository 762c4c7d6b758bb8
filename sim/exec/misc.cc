// PTX ISA §9.7.19 Miscellaneous Instructions (and griddepcontrol, §9.7.13):
//   trap;                  aborts the kernel: reported as an error naming the line and thread
//   brkpt;                 a breakpoint: reported as an error (no debugger attached)
//   nanosleep.u32 t;       suspends the thread for about t ns (here exactly min(t, 10^6) ns of simulated time)
//   pmevent a; pmevent.mask a;   performance-monitor events: no effect on results
//   griddepcontrol.{launch_dependents,wait};   programmatic dependent launch: a single launch has
//                                              no prerequisite grid, so both complete at once
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Type;

void exec_trap(ExecCtx& c, const ExecInstr&) {
  c.fail(__builtin_ctz(c.mask), "trap: the kernel executed `trap` and was aborted");
}
void exec_brkpt(ExecCtx& c, const ExecInstr&) {
  c.fail(__builtin_ctz(c.mask), "brkpt: the kernel hit a breakpoint instruction (no debugger is attached)");
}
void exec_nanosleep(ExecCtx& c, const ExecInstr& in) {
  const uint64_t* t = c.src(in.o[0]);
  uint64_t ns = 0;
  for_lanes(c.mask, [&](int i) { ns = std::max<uint64_t>(ns, static_cast<uint32_t>(t[i])); });
  // The sleep lasts at most 1 ms whatever t (PTX ISA §9.7.19 Miscellaneous Instructions: nanosleep,
  // "the maximum sleep duration is 1 millisecond").
  ns = std::min<uint64_t>(ns, 1'000'000);
  const uint64_t cycles = std::max<uint64_t>(1, ns * c.launch->machine->clock_mhz / 1000);
  c.flow = Flow::Sleep;
  c.target = static_cast<uint32_t>(std::min<uint64_t>(cycles, 0xffffffffu));
}
void exec_nop(ExecCtx&, const ExecInstr&) {}

}  // namespace

void bind_misc(BindCtx& b) {
  using isa::ptx::Op;
  switch (b.in.op) {
    case Op::trap: b.out.fn = exec_trap; return;
    case Op::brkpt: b.out.fn = exec_brkpt; return;
    case Op::nanosleep:
      b.need_type({Type::U32});  // nanosleep.u32 t (PTX ISA §9.7.19 Miscellaneous Instructions)
      b.out.fn = exec_nanosleep;
      b.out.o[0] = b.src(0, Type::U32);
      return;
    case Op::pmevent:
    case Op::griddepcontrol:
      b.out.fn = exec_nop;
      return;
    default:
      b.fail("internal: not an implemented misc row");
  }
}

}  // namespace tcsim::sim
