#include "models/timing/profile.h"

#include <charconv>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

namespace tcsim::models::timing {

// The profile texts, generated at build time from models/timing/*.txt (profiles_embed.cmake).
struct EmbeddedProfile {
  const char* name;
  const char* text;
};
std::span<const EmbeddedProfile> embedded_profiles();

namespace {

constexpr ParamInfo kParams[] = {
#define TIMING_PARAM(member, key, unit, what) {key, unit, what},
#include "models/timing/params.def"
#undef TIMING_PARAM
};
constexpr size_t kNumParams = sizeof kParams / sizeof kParams[0];

double* member_ptr(Profile& p, size_t i) {
  double* ptrs[] = {
#define TIMING_PARAM(member, key, unit, what) &p.member,
#include "models/timing/params.def"
#undef TIMING_PARAM
  };
  return ptrs[i];
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

constexpr std::string_view kConfidences[] = {"measured", "published", "vendor", "derived", "assumed"};

}  // namespace

std::span<const ParamInfo> params() { return kParams; }

const double* Profile::find(std::string_view key) const {
  for (size_t i = 0; i < kNumParams; ++i)
    if (kParams[i].key == key) return member_ptr(const_cast<Profile&>(*this), i);
  return nullptr;
}

isa::Expected<Profile> parse_profile(std::string_view text, std::string_view file) {
  Profile p;
  p.meta.resize(kNumParams);
  std::vector<bool> seen(kNumParams, false);
  std::map<std::string_view, size_t> index;
  for (size_t i = 0; i < kNumParams; ++i) index[kParams[i].key] = i;
  auto err = [&](uint32_t line, const std::string& what) {
    return isa::Error{fmt::format("{}:{}: {}", file, line, what)};
  };
  uint32_t lineno = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++lineno;
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;  // whole-line comments only: sources cite "PR #2899"
    if (line.starts_with("profile:")) {
      p.name = std::string(trim(line.substr(8)));
      continue;
    }
    if (line.starts_with("gpu:")) {
      p.gpu = std::string(trim(line.substr(4)));
      continue;
    }
    // key = value unit ; source: ... ; confidence: ...   (a source may itself contain ';')
    const size_t src_at = line.find("; source:");
    const size_t conf_at = line.rfind("; confidence:");
    const std::string_view head = trim(line.substr(0, std::min(src_at, conf_at)));
    const size_t eq = head.find('=');
    if (eq == std::string_view::npos)
      return err(lineno, fmt::format("expected 'key = value unit ; source: ... ; confidence: ...', got '{}'", head));
    const std::string_view key = trim(head.substr(0, eq));
    const std::string_view rhs = trim(head.substr(eq + 1));
    const auto it = index.find(key);
    if (it == index.end()) return err(lineno, fmt::format("unknown key '{}' (the keys are models/timing/params.def)", key));
    const size_t i = it->second;
    if (seen[i]) return err(lineno, fmt::format("'{}' is given twice (first at line {})", key, p.meta[i].line));
    const size_t sp = rhs.find_first_of(" \t");
    const std::string_view num = rhs.substr(0, sp);
    const std::string_view unit = sp == std::string_view::npos ? std::string_view{} : trim(rhs.substr(sp));
    double v = 0;
    const auto r = std::from_chars(num.data(), num.data() + num.size(), v);
    if (r.ec != std::errc() || r.ptr != num.data() + num.size() || !std::isfinite(v) || v < 0)
      return err(lineno, fmt::format("'{}': '{}' is not a finite number >= 0", key, num));
    if (unit != kParams[i].unit)
      return err(lineno, fmt::format("'{}' is in {}, not '{}'", key, kParams[i].unit, unit));
    Profile::Meta m;
    m.line = lineno;
    if (src_at != std::string_view::npos)
      m.source = std::string(trim(line.substr(src_at + 9, conf_at == std::string_view::npos || conf_at < src_at
                                                               ? std::string_view::npos
                                                               : conf_at - src_at - 9)));
    if (conf_at != std::string_view::npos && conf_at > src_at)
      m.confidence = std::string(trim(line.substr(conf_at + 13)));
    else if (conf_at != std::string_view::npos && src_at == std::string_view::npos)
      m.confidence = std::string(trim(line.substr(conf_at + 13)));
    if (m.source.empty()) return err(lineno, fmt::format("'{}' has no 'source:'", key));
    bool known = false;
    for (std::string_view c : kConfidences) known = known || m.confidence == c;
    if (!known)
      return err(lineno, fmt::format("'{}': confidence '{}' is not one of measured, published, vendor, derived, "
                                     "assumed (fields: '; source: ...' then '; confidence: ...')",
                                     key, m.confidence));
    *member_ptr(p, i) = v;
    p.meta[i] = std::move(m);
    seen[i] = true;
  }
  std::string missing;
  for (size_t i = 0; i < kNumParams; ++i)
    if (!seen[i]) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", kParams[i].key);
  if (!missing.empty()) return isa::Error{fmt::format("{}: missing keys: {}", file, missing)};
  if (p.name.empty()) return isa::Error{fmt::format("{}: no 'profile: NAME' line", file)};
  if (p.sm_schedulers < 1 || p.clock_boost_mhz <= 0 || p.clock_sustained_mhz <= 0 || p.smem_bytes_per_clk <= 0 ||
      p.hbm_bandwidth <= 0 || p.l2_bandwidth <= 0 || p.tma_sm_bytes_per_clk <= 0 || p.tma_stream_bytes_per_clk <= 0 ||
      p.tma_multicast_bytes_per_clk <= 0 || p.tc_cols_per_clk <= 0 || p.tc_ld_cols_per_clk <= 0 ||
      p.tc_cp_bytes_per_clk <= 0 || p.l1_lines_per_clk <= 0)
    return isa::Error{fmt::format("{}: a rate or count that divides (schedulers, clocks, bandwidths) is 0", file)};
  for (size_t i = 0; i < kNumParams; ++i)
    if (kParams[i].unit == "per_clk" && *member_ptr(p, i) <= 0)
      return isa::Error{fmt::format("{}:{}: '{}' must be > 0", file, p.meta[i].line, kParams[i].key)};
  return p;
}

std::vector<std::string> builtin_names() {
  std::vector<std::string> r;
  for (const EmbeddedProfile& e : embedded_profiles()) r.emplace_back(e.name);
  return r;
}

std::string_view builtin_text(std::string_view name) {
  for (const EmbeddedProfile& e : embedded_profiles())
    if (name == e.name) return e.text;
  return {};
}

const Profile& builtin(std::string_view name) {
  static std::mutex mu;
  static std::map<std::string, Profile, std::less<>> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  const std::string_view text = builtin_text(name);
  if (text.empty()) throw std::runtime_error(fmt::format("no built-in timing profile '{}'", name));
  auto p = parse_profile(text, fmt::format("models/timing/{}.txt", name));
  if (!p) throw std::runtime_error(p.error().message);
  return cache.emplace(std::string(name), std::move(*p)).first->second;
}

const Profile& for_arch(isa::Arch arch) { return builtin(arch == isa::Arch::Sm90a ? "h200" : "b200"); }

}  // namespace tcsim::models::timing
