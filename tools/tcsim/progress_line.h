// The progress line of a long launch: "tcsim: 12/64 CTAs, 1.2M cycles, 8.1 s, ETA 31 s", rewritten in
// place on stderr about twice a second, and only when stderr is a terminal (isatty): never in pipes,
// files or CI logs. Erased before anything else is printed.
#pragma once
#include "sim/api.h"

namespace tcsim::cli {

// Sets opts.progress when stderr is a terminal; otherwise leaves opts unchanged.
void enable_progress_line(sim::DeviceOptions& opts);
// Erases the line if one is shown (call before printing results or errors).
void clear_progress_line();

}  // namespace tcsim::cli
