// Progress line on a terminal (progress_line.h).
#include "tools/tcsim/progress_line.h"

#include <atomic>
#include <cstdio>

#include <unistd.h>

#include <fmt/format.h>

namespace tcsim::cli {
namespace {

std::atomic<bool> g_shown{false};

std::string compact(uint64_t v) {
  if (v >= 10'000'000'000ull) return fmt::format("{:.1f}G", static_cast<double>(v) / 1e9);
  if (v >= 10'000'000ull) return fmt::format("{:.1f}M", static_cast<double>(v) / 1e6);
  if (v >= 10'000ull) return fmt::format("{:.1f}k", static_cast<double>(v) / 1e3);
  return fmt::format("{}", v);
}

std::string duration(double s) {
  if (s >= 3600) return fmt::format("{:.1f} h", s / 3600);
  if (s >= 120) return fmt::format("{:.0f} min", s / 60);
  return fmt::format("{:.0f} s", s);
}

void show(const sim::LaunchProgress& p) {
  std::string eta = "ETA unknown";
  if (p.ctas_done > 0 && p.ctas_done < p.ctas_total)
    eta = "ETA " + duration(p.elapsed_seconds * static_cast<double>(p.ctas_total - p.ctas_done) /
                            static_cast<double>(p.ctas_done));
  fmt::print(stderr, "\r\033[Ktcsim: {}/{} CTAs done, {} cycles, {} warp-instructions, {:.1f} s, {}", p.ctas_done,
             p.ctas_total, compact(p.cycles), compact(p.warp_instructions), p.elapsed_seconds, eta);
  std::fflush(stderr);
  g_shown = true;
}

}  // namespace

void enable_progress_line(sim::DeviceOptions& opts) {
  if (!::isatty(STDERR_FILENO)) return;
  opts.progress = show;
}

void clear_progress_line() {
  if (!g_shown.exchange(false)) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace tcsim::cli
