// A stable text form of the IR for golden tests and `tcsim` debugging: one line per declaration
// and per instruction, with every typed field the front end decoded.
#pragma once
#include <string>

#include "isa/ptx/ir.h"

namespace tcsim::isa::ptx {

std::string dump(const Module& m);
std::string dump_instr(const Module& m, const Function& f, const Instr& in);
std::string dump_operand(const Module& m, const Function& f, const Operand& o);
// "kernel.cu:38" for a CUDA source position (file base name); for code inlined from a header,
// the user's call site first: "kernel.cu:38 via mbarrier_init.h:19". Empty without a .loc.
std::string cuda_location(const Module& m, const CudaLoc& l);

}  // namespace tcsim::isa::ptx
