// Binding-time timing facts of instructions (sim/timing/instr_timing.h).
#pragma once
#include "isa/ptx/ir.h"
#include "sim/program.h"
#include "sim/timing/instr_timing.h"

namespace tcsim::sim::timing {

// The pipe one PTX instruction issues to.
Pipe classify(const isa::ptx::Instr& in);
// Fills prog.timing / prog.timing_deps for every pc of prog.code (called by bind_program).
void annotate_timing(Program& prog);

}  // namespace tcsim::sim::timing
