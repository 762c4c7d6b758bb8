// A kernel bound for execution: the PTX IR of the entry and every function it can reach, lowered
// once into a flat array of ExecInstr (a function pointer specialised by family, type and
// modifiers, plus pre-resolved register/immediate references). Nothing is looked up by name or
// decoded while the kernel runs.
//
// Register file model: each warp has `num_slots` slots of 32 lanes x 64 bits, slot-major
// (slot * 32 + lane), and `num_preds` predicate masks (one bit per lane). Every function's registers
// get their own slot range; special registers that are constant for a warp (%tid.x, %ctaid.y, ...)
// get hidden slots filled when the warp starts. Slot 0 and predicate 0 are scratch sinks for `_`.
// A value narrower than 64 bits is stored zero-extended.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/arch.h"
#include "isa/ptx/ir.h"
#include "sim/cycles.h"
#include "sim/timing/instr_timing.h"

namespace tcsim::sim {

struct ExecCtx;
struct ExecInstr;
using ExecFn = void (*)(ExecCtx&, const ExecInstr&);

// A source/destination reference: a register slot, or (kRefImm | i) the i-th broadcast immediate
// of the program's pool (32 equal lanes, so sources are always "32 lanes of uint64").
using Ref = uint32_t;
inline constexpr Ref kRefImm = 0x80000000u;
inline constexpr Ref kSinkSlot = 0;
inline constexpr uint32_t kNoGuard = 0xffffffffu;
inline constexpr uint32_t kGuardNegated = 0x80000000u;
// Stack bytes a call costs beyond its frame's variables (return address and saved registers):
// assumed, the GPU's frames depend on ptxas's register allocation (docs/hostile_input.md, "Stack").
inline constexpr uint32_t kCallOverheadBytes = 16;

struct ExecInstr {
  ExecFn fn = nullptr;
  Ref o[4] = {0, 0, 0, 0};   // family-defined: usually d, a, b, c
  uint32_t guard = kNoGuard;  // predicate slot | kGuardNegated
  uint32_t first_op = 0;      // Program::operands index (vectors, addresses, call args)
  uint16_t nops = 0;
  uint8_t timing = 0;         // isa::ptx::Timing
  uint8_t flags = 0;          // family-defined
  uint32_t src = 0;           // Program::sources index (diagnostics)
  uint64_t aux = 0;           // family-defined payload (targets, packed modifiers, widths)
};

// How an address operand's base is formed (all plus `offset`, symbol addresses folded in).
enum class AddrBase : uint8_t {
  None,   // absolute: offset only ([gvar+4], [sharedvar], [kernel_param])
  Reg,    // register value ([%rd1+8])
  Frame,  // the lane's current local-stack frame base (.local variables, .func/.callsite params)
  Shared, // the executing CTA's own shared address of offset 0 (rank << 24): [sharedvar+4]
};

struct ExecOperand {
  Ref ref = 0;              // vector element / base register
  AddrBase base = AddrBase::None;
  bool is_sink = false;
  uint8_t reg_bits = 0;     // declared register width (8/16/32/64/128; 1 for .pred)
  int64_t offset = 0;
};

// Byte copy between two frame-relative areas of the calling lane's local stack (call ABI).
struct ParamCopy {
  uint32_t from;  // caller frame offset (call: argument; ret: callee retval)
  uint32_t to;
  uint32_t size;
};

struct CallSite {
  uint32_t caller = 0;            // FunctionLayout index of the calling function
  int32_t callee = -1;            // FunctionLayout index; -1 = indirect through `target`
  Ref target = 0;                 // register holding a function address (indirect)
  uint32_t return_pc = 0;
  std::vector<uint32_t> arg_off;  // caller-frame offsets of the argument params, in order
  std::vector<uint32_t> arg_size;
  int64_t ret_off = -1;           // caller-frame offset of the return param (-1: none)
  uint32_t ret_size = 0;
};

struct FunctionLayout {
  uint32_t isa_index = 0;
  std::string name;
  uint32_t entry_pc = 0, end_pc = 0;
  uint32_t frame_size = 0;             // bytes of local stack per activation (16-aligned)
  std::vector<uint32_t> param_off;     // own parameters (frame-relative), declaration order
  std::vector<uint32_t> param_size;
  std::vector<uint32_t> retval_off;
  std::vector<uint32_t> retval_size;
  uint32_t slot_base = 0, nslots = 0;  // register slots of this function
  uint32_t pred_base = 0, npreds = 0;
  bool recursive = false;              // in a call-graph cycle: registers saved per activation
  uint32_t save_off = 0;               // frame offset of the register save area (recursive)
  // Bytes of an activation counted against cudaLimitStackSize (recursive functions): its .param and
  // .local variables plus kCallOverheadBytes, not tcsim's register save area.
  uint32_t stack_bytes = 0;
  bool has_body = false;
};

struct SourceRef {
  uint32_t function;  // isa function index
  uint32_t instr;     // instruction index in that function
};

struct Program {
  const isa::ptx::Module* module = nullptr;
  std::string kernel;
  uint32_t entry = 0;  // FunctionLayout index of the kernel
  std::vector<ExecInstr> code;
  std::vector<ExecOperand> operands;
  std::vector<uint64_t> imm_pool;  // 32 lanes per entry
  std::vector<SourceRef> sources;
  std::vector<FunctionLayout> funcs;
  std::vector<int32_t> layout_of;  // isa function index -> FunctionLayout index (-1 unreachable)
  std::vector<CallSite> call_sites;
  std::vector<std::vector<uint32_t>> branch_tables;  // pcs
  uint32_t num_slots = 1, num_preds = 1;
  std::array<Ref, static_cast<size_t>(isa::ptx::SReg::Count_)> sreg_slot{};  // 0 = unused
  std::vector<isa::ptx::SReg> used_sregs;
  // Shared memory (models/machine/shared_memory.h): the static variables (demoted function .shared
  // included) end `static_smem` bytes after the reserve; `extern_smem_align` is the largest
  // alignment of an extern .shared array of the module (0: none). Together with the launch's
  // dynamic size they give the CTA's SmemLayout (models::smem_layout, LaunchState::smem).
  uint32_t static_smem = 0;
  uint32_t extern_smem_align = 0;
  // The value of a shared variable (mov r, var; var + imm as an operand) is its offset plus the
  // executing CTA's rank field: each distinct (offset, width) gets a hidden per-warp slot that
  // Warp's constructor fills (like the per-warp special registers).
  struct SharedValueSlot {
    Ref slot;
    uint32_t offset;
    uint8_t bits;
  };
  std::vector<SharedValueSlot> smem_value_slots;
  uint32_t param_bytes = 0;     // kernel parameter buffer size
  bool uses_local = false;      // some frame is non-empty: lanes need local memory
  // Some instruction reads or writes shared memory through the async proxy (TMA, bulk copies,
  // wgmma, tcgen05.mma/.cp): generic shared-memory accesses then feed the proxy checker
  // (sim/checker/proxy.h). Set by those families' binders.
  bool uses_async_proxy = false;
  // Per pc: the memory-order class of the instruction's accesses (sim/checker/race.h MemOrder:
  // morally strong, acquire, release), for the race detector; `has_strong_access`: some pc is strong.
  std::vector<uint8_t> mem_order;
  bool has_strong_access = false;
  uint32_t max_local_per_lane = 1u << 20;  // stack limit per thread (bytes)
  uint32_t cc_slot = 0;          // predicate slot holding the per-lane carry flag CC.CF (0: unused)
  std::vector<std::string> notes;  // reasons for not-implemented forms (ExecInstr::aux indexes)
  // Distinct .approx instruction forms of the kernel ("ex2.approx.ftz.f32"), in binding order; an
  // approx execute function reports its index to Partition::note_approx (float_approx.cc), and the
  // launch lists the ones that ran in LaunchResult::approx_ops.
  std::vector<std::string> approx_names;
  // Per isa function: register -> slot (predicates: predicate index), as bound; lets checkers
  // (sim/units/wgmma_unit.cc) see which registers an instruction touches.
  std::vector<std::vector<uint32_t>> reg_slots;
  // Data a family precomputes at bind time for its instructions (an MMA engine, an operand
  // plan), owned here and indexed by the family (ExecInstr::aux); read-only while running, so
  // partitions share it. Type-erased: only the family that stored an entry reads it.
  std::vector<std::shared_ptr<const void>> family_data;
  std::string source_name;
  // The timing model's view of each pc (sim/timing/instr_timing.h): pipe and scoreboard registers;
  // timing_deps holds each instruction's source then destination slots (predicates at
  // num_slots + index).
  std::vector<timing::InstrTiming> timing;
  std::vector<Ref> timing_deps;
  // Per pc, what executing the instruction (any lane) means for livelock detection
  // (sim/livelock.h, progress_kind): kProgress (a store, an atomic, a barrier arrival, an
  // asynchronous issue, a read of a clock register), kPoll (a wait) or kNoProgress.
  std::vector<uint8_t> progress;

  const isa::ptx::Instr& instr_of(const ExecInstr& e) const {
    const SourceRef& s = sources[e.src];
    return module->functions[s.function].instrs[s.instr];
  }
  const isa::ptx::Function& function_of(const ExecInstr& e) const {
    return module->functions[sources[e.src].function];
  }
  uint32_t pc_of(const ExecInstr& e) const { return static_cast<uint32_t>(&e - code.data()); }
};

// Everything binding needs from the loaded module that is not in the IR: the device addresses of
// module variables and of functions.
struct LoadedSymbols {
  std::vector<uint64_t> address;  // per isa symbol: global address of .global/.const data (0 = none)
  isa::Arch arch = isa::Arch::Sm100a;  // the device's architecture (per-arch MMA numerics rows)
  uint32_t module_id = 0;          // function addresses: addr::kFuncBase | module_id << 20 | index << 4
};

uint64_t function_address(uint32_t module_id, uint32_t isa_function);
bool decode_function_address(uint64_t a, uint32_t module_id, uint32_t* isa_function);

// Lowers kernel `entry` (an isa function index) of `m`. Throws SimError for PTX the simulator
// rejects at load (an illegal combination, a register of the wrong width), naming the line.
Program bind_program(const isa::ptx::Module& m, uint32_t entry, const LoadedSymbols& syms,
                     const std::string& source_name);

}  // namespace tcsim::sim
