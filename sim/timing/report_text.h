// The timing report as text (the end of `tcsim run`), as JSON (the manifest's "timing"), and the
// trace as a Chrome/Perfetto trace-event file (`tcsim run --trace FILE`; open it in
// https://ui.perfetto.dev or chrome://tracing).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/timing/report.h"

namespace tcsim::sim::timing {

std::string format_report(const TimingReport& r);
nlohmann::ordered_json report_json(const TimingReport& r);
// Timestamps in microseconds at `clock_mhz`; one process per SM, one thread per track (the TMA
// engine, the tensor pipe, mbarrier phase completions, each warp).
void write_trace(std::ostream& out, const std::vector<TraceEvent>& events, double clock_mhz, const std::string& title);

}  // namespace tcsim::sim::timing
