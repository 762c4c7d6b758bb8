// Device printf: the vprintf system call (NVIDIA "PTX Writer's Guide to Interoperability", System
// Calls; the call ABI is PTX ISA §7 "Abstracting the ABI"):
//   .extern .func (.param .b32 status) vprintf (.param .b64 format, .param .b64 valist);
//   call.uni (retval0), vprintf, (param0, param1);
// nvcc lowers printf(fmt, ...) to this: `format` is the generic address of the format string (a
// .global $str array), `valist` the generic address of a local array holding the promoted
// arguments, each at its natural alignment (0 when there are none).
//
// A call is bound like any call, but executes here instead of entering a body: the format is read
// from memory, formatted as CUDA formats it (printf_format.h), and the record goes to the
// partition's printf FIFO (sim/printf_log.h); the launch prints the FIFO after it ends
// (LaunchResult::printf_output). Time: the call costs what any call instruction costs (its
// timing class); formatting takes no simulated time (docs/printf.md "Cycles").
#include <fmt/format.h>

#include "sim/exec/device_calls.h"
#include "sim/exec/printf_format.h"
#include "sim/memory/access.h"
#include "sim/partition.h"
#include "sim/report/report.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Space;

// The argument buffer and device strings of one lane, read through the checked memory paths.
class LaneMemory final : public printf_format::Memory {
 public:
  LaneMemory(ExecCtx& c, int lane, uint64_t args, std::string_view fmt) : c_(c), lane_(lane), args_(args), fmt_(fmt) {}

  void read_arg(uint64_t offset, void* dst, uint32_t size) override {
    if (args_ == 0)
      c_.fail(lane_, fmt::format("vprintf: the format \"{}\" takes arguments, but the argument buffer pointer is "
                                 "null", shown(fmt_)));
    mem::read(c_, lane_, Space::Generic, false, args_ + offset, dst, size, gc_);
  }

  std::string read_string(uint64_t addr, size_t max) override { return read_c_string(c_, lane_, addr, max, gc_); }

  static std::string shown(std::string_view s) {
    std::string r;
    for (char ch : s.substr(0, 80)) {
      if (ch == '\n') r += "\\n";
      else if (static_cast<unsigned char>(ch) < 0x20) r += fmt::format("\\x{:02x}", static_cast<unsigned char>(ch));
      else r += ch;
    }
    return s.size() > 80 ? r + "..." : r;
  }

  // Bytes before the NUL at generic address `addr`, at most `max`.
  static std::string read_c_string(ExecCtx& c, int lane, uint64_t addr, size_t max, mem::GlobalCache& gc) {
    std::string s;
    for (;;) {
      char ch = 0;
      mem::read(c, lane, Space::Generic, false, addr + s.size(), &ch, 1, gc);
      if (ch == 0 || s.size() == max) return s;
      s += ch;
    }
  }

 private:
  ExecCtx& c_;
  int lane_;
  uint64_t args_;
  std::string_view fmt_;
  mem::GlobalCache gc_;
};

void exec_vprintf(ExecCtx& c, const ExecInstr& in) {
  const CallSite& cs = c.prog->call_sites[in.aux];
  const uint64_t capacity = printf_fifo_capacity(*c.launch);
  for_lanes(c.mask, [&](int lane) {
    mem::GlobalCache gc;
    const uint64_t base = c.warp->frame_base(lane);
    uint64_t fmt_ptr = 0, args_ptr = 0;
    mem::read(c, lane, Space::Param, true, base + cs.arg_off[0], &fmt_ptr, 8, gc);
    mem::read(c, lane, Space::Param, true, base + cs.arg_off[1], &args_ptr, 8, gc);
    int32_t ret = -1;  // a null format: -1, nothing printed (CUDA Programming Guide, "Formatted Output")
    if (fmt_ptr != 0) {
      const std::string fmt = LaneMemory::read_c_string(c, lane, fmt_ptr, printf_format::kMaxString, gc);
      if (fmt.size() == printf_format::kMaxString)
        c.fail(lane, fmt::format("vprintf: the format string at 0x{:x} has no NUL within its first {} bytes", fmt_ptr,
                                 printf_format::kMaxString));
      LaneMemory m(c, lane, args_ptr, fmt);
      printf_format::Result r = printf_format::format(fmt, m);
      ret = r.ret;
      // What the GPU leaves undefined here: a finding of this call site per occurrence.
      for (const std::string& u : r.undefined) report(c, Rule::PrintfUndefined, lane, u);
      if (r.too_long) {
        c.part->printf_log().drop();
      } else {
        PrintfRecord rec;
        rec.cycle = c.now.count();
        rec.cta = c.cta->linear_id();
        rec.warp = c.warp->id();
        rec.lane = static_cast<uint32_t>(lane);
        rec.bytes = printf_record_bytes(r.slots, fmt.size(), r.string_bytes);
        rec.text = std::move(r.text);
        c.part->printf_log().add(capacity, std::move(rec));
      }
    }
    if (cs.ret_off >= 0) {
      const uint32_t v = static_cast<uint32_t>(ret);
      mem::write(c, lane, Space::Param, true, base + static_cast<uint64_t>(cs.ret_off), &v, 4, gc);
    }
  });
}

}  // namespace

bool bind_device_call(BindCtx& b, const CallSite& cs, const std::string& callee) {
  if (callee != "vprintf") return false;
  if (cs.arg_off.size() != 2 || cs.arg_size[0] != 8 || cs.arg_size[1] != 8)
    b.fail("vprintf takes two 8-byte parameters (.param .b64 format, .param .b64 valist)");
  if (cs.ret_off >= 0 && cs.ret_size != 4) b.fail("vprintf returns a 4-byte status (.param .b32)");
  b.out.fn = exec_vprintf;
  return true;
}

}  // namespace tcsim::sim
