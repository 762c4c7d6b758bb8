// Calls to functions a module declares but does not define, which the CUDA device runtime provides
// (NVIDIA "PTX Writer's Guide to Interoperability", System Calls): the simulator executes them
// itself. Today: vprintf (sim/exec/printf.cc). Other undefined functions fail when called.
#pragma once
#include <string>

#include "sim/exec/bind.h"

namespace tcsim::sim {

// Binds the call instruction in `b` to the simulator's implementation of `callee` (its call site
// `cs` already resolved) and returns true; false when the simulator provides no such function.
// Fails the load (b.fail) when the call's parameters do not match the function's prototype.
bool bind_device_call(BindCtx& b, const CallSite& cs, const std::string& callee);

}  // namespace tcsim::sim
