#include "sim/timing/load_hoist.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "isa/ptx/opcodes.h"
#include "sim/program.h"
#include "sim/timing/instr_timing.h"

namespace tcsim::sim::timing {

namespace {

using isa::ptx::Op;
using isa::ptx::Space;

bool reads_no_shared(const isa::ptx::Instr& in) {
  if (in.nspaces < 1) return false;  // generic: may read shared memory
  const Space s = in.spaces[0];
  return s == Space::Global || s == Space::Const || s == Space::Param || s == Space::ParamEntry ||
         s == Space::ParamFunc;
}

}  // namespace

void annotate_load_hoist(Program& prog) {
  const isa::ptx::Module& m = *prog.module;
  const uint32_t n = static_cast<uint32_t>(prog.code.size());
  std::vector<uint8_t> candidate(n, 0);  // 1: a register-only instruction that may defer
  std::vector<uint32_t> func(n, 0);
  for (uint32_t pc = 0; pc < n; ++pc) {
    const SourceRef& sr = prog.sources[prog.code[pc].src];
    const isa::ptx::Function& f = m.functions[sr.function];
    InstrTiming& t = prog.timing[pc];
    func[pc] = sr.function;
    if (sr.instr >= f.instrs.size()) {  // the implicit ret after a body
      t.defer = kDrain;
      continue;
    }
    const isa::ptx::Instr& in = f.instrs[sr.instr];
    const bool reg_only = t.pipe < Pipe::FixedCount_;
    const bool keeps = reg_only || in.op == Op::st ||
                       (in.op == Op::bra && prog.code[pc].aux > pc) ||  // a forward branch (predication in SASS)
                       ((in.op == Op::ld || in.op == Op::ldu) && reads_no_shared(in));
    if (!keeps) t.defer = kDrain;
    if (in.op != Op::st) t.defer &= static_cast<uint8_t>(~kDeferMask);  // only a shared store's data (instr_class.cc)
    if (reg_only && t.ndst > 0) candidate[pc] = 1;
  }
  // The readers of every register: a candidate may defer only when each reader of each register it
  // writes defers that read too (a shared store's data, or another deferring candidate). Start with
  // every candidate deferring and drop those with another reader until nothing changes.
  struct Use {
    uint32_t pc;
    bool deferrable;
  };
  auto key = [&](uint32_t pc, Ref r) { return uint64_t{func[pc]} << 32 | r; };
  std::unordered_map<uint64_t, std::vector<Use>> readers;
  for (uint32_t pc = 0; pc < n; ++pc) {
    const InstrTiming& t = prog.timing[pc];
    const Ref* d = prog.timing_deps.data() + t.dep_off;
    const uint32_t data_from = t.nsrc - (t.defer & kDeferMask);
    for (uint32_t i = 0; i < t.nsrc; ++i)
      readers[key(pc, d[i])].push_back({pc, candidate[pc] != 0 || ((t.defer & kDeferMask) && i >= data_from)});
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t pc = 0; pc < n; ++pc) {
      if (!candidate[pc]) continue;
      const InstrTiming& t = prog.timing[pc];
      const Ref* d = prog.timing_deps.data() + t.dep_off + t.nsrc;
      bool ok = true;
      for (uint32_t i = 0; i < t.ndst && ok; ++i) {
        const auto it = readers.find(key(pc, d[i]));
        if (it == readers.end()) ok = false;  // read by nothing: no store to hoist the load for
        else
          for (const Use& u : it->second) ok = ok && u.deferrable;
      }
      if (ok) continue;
      candidate[pc] = 0;
      changed = true;
      const Ref* s = prog.timing_deps.data() + t.dep_off;
      for (uint32_t i = 0; i < t.nsrc; ++i)
        for (Use& u : readers[key(pc, s[i])])
          if (u.pc == pc) u.deferrable = false;
    }
  }
  for (uint32_t pc = 0; pc < n; ++pc)
    if (candidate[pc]) {
      InstrTiming& t = prog.timing[pc];
      t.defer = static_cast<uint8_t>((t.defer & kDrain) | std::min<uint32_t>(t.nsrc, kDeferMask));
    }
}

}  // namespace tcsim::sim::timing
