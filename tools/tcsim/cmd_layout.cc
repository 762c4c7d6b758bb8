// tcsim layout --desc HEX --dtype T --major k|mn --mn M --k K [--svg FILE] [--json]
//              [--arch sm_100a|sm_90a] [--kind KIND]
//
// Where each element (mn, k) of a tcgen05/wgmma shared-memory operand lives: the table of byte
// addresses (byte.bit for 4/6-bit types) the descriptor's canonical layout gives
// (isa/layouts/canonical_layout.h), and optionally an SVG picture of the shared memory: 16-byte
// cells, 8 per 128-byte line, each labelled with the elements it holds and coloured by row, so
// the swizzle is visible at a glance.
//
// --kind only matters for e2m1: kind::f8f6f4 / mxf8f6f4 (default) read fp4 padded, 16 per
// 16 bytes; kind::mxf4 / mxf4nvf4 read it dense, 32 per 16 bytes (PTX ISA §9.7.16.10.4).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "isa/arch.h"
#include "isa/descriptors/smem_desc.h"
#include "isa/dtype.h"
#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/element_format.h"
#include "isa/mma_kind.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {

using namespace tcsim::isa;

constexpr std::string_view kUsage =
    "layout --desc HEX --dtype T --major k|mn --mn M --k K [--svg FILE] [--json] "
    "[--arch sm_100a|sm_90a] [--kind KIND]";

uint64_t parse_hex64(std::string_view opt, std::string_view s) {
  std::string_view v = s;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) v.remove_prefix(2);
  if (v.empty() || v.size() > 16)
    throw UsageError(fmt::format("{} '{}': expected a 64-bit hex value (e.g. 0x4000404000010040)",
                                 opt, s));
  uint64_t x = 0;
  for (char c : v) {
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0) throw UsageError(fmt::format("{} '{}': '{}' is not a hex digit", opt, s, c));
    x = x << 4 | uint64_t(d);
  }
  return x;
}

uint32_t parse_count(std::string_view opt, std::string_view s, uint32_t max) {
  uint64_t x = 0;
  if (s.empty()) throw UsageError(fmt::format("{}: expected a number", opt));
  for (char c : s) {
    if (c < '0' || c > '9' || x > max)
      throw UsageError(fmt::format("{} '{}': expected a whole number 1..{}", opt, s, max));
    x = x * 10 + uint64_t(c - '0');
  }
  if (x < 1 || x > max)
    throw UsageError(fmt::format("{} {}: must be 1..{}", opt, s, max));
  return uint32_t(x);
}

struct Options {
  std::optional<uint64_t> desc;
  std::optional<DType> dtype;
  std::optional<Major> major;
  std::optional<uint32_t> mn, k;
  std::optional<std::string> svg;
  std::optional<MmaKind> kind;
  Arch arch = Arch::Sm100a;
  bool json = false;
};

Options parse(Args args) {
  Options o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value ({})", a, kUsage));
      return args[++i];
    };
    if (a == "--desc") {
      o.desc = parse_hex64(a, value());
    } else if (a == "--dtype") {
      const auto v = value();
      o.dtype = parse_dtype(v);
      if (!o.dtype) throw UsageError(fmt::format("--dtype '{}': unknown type (e.g. bf16, f16, "
                                                 "tf32, e4m3, e2m1, s8)",
                                                 v));
    } else if (a == "--major") {
      const auto v = value();
      o.major = parse_major(v);
      if (!o.major) throw UsageError(fmt::format("--major '{}': expected k or mn", v));
    } else if (a == "--mn") {
      o.mn = parse_count(a, value(), 1024);
    } else if (a == "--k") {
      o.k = parse_count(a, value(), 1024);
    } else if (a == "--svg") {
      o.svg = std::string(value());
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--arch") {
      const auto v = value();
      const auto arch = parse_arch(v);
      if (!arch) throw UsageError(fmt::format("--arch '{}': expected sm_100a or sm_90a", v));
      o.arch = *arch;
    } else if (a == "--kind") {
      const auto v = value();
      o.kind = parse_kind(v);
      if (!o.kind) throw UsageError(fmt::format("--kind '{}': unknown kind (f16, tf32, f8f6f4, "
                                                "i8, mxf8f6f4, mxf4, mxf4nvf4)",
                                                v));
    } else {
      throw UsageError(fmt::format("unknown option '{}' (usage: tcsim {})", a, kUsage));
    }
  }
  if (!o.desc || !o.dtype || !o.major || !o.mn || !o.k)
    throw UsageError(fmt::format("--desc, --dtype, --major, --mn and --k are required (usage: "
                                 "tcsim {})",
                                 kUsage));
  return o;
}

// Hue per row index, as #rrggbb (consecutive rows far apart on the colour wheel).
std::string row_colour(uint32_t row) {
  const double h = double((row * 47) % 360) / 60.0, s = 0.55, l = 0.78;
  const double c = (1 - std::abs(2 * l - 1)) * s;
  const double x = c * (1 - std::abs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  switch (int(h)) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
  }
  const double m = l - c / 2;
  auto byte = [&](double v) { return int(std::lround((v + m) * 255)); };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b));
}

std::string xml_escape(std::string_view s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
}

// Greedy word wrap at `width` characters.
std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = text.find(' ', i);
    if (j == std::string::npos) j = text.size();
    const std::string word = text.substr(i, j - i);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    i = j + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// The elements a 16-byte cell holds, for its label: a run along the contiguous coordinate.
struct Cell {
  uint32_t row = 0;            // colour key: mn (K-major) or k (MN-major)
  uint32_t lo = UINT32_MAX, hi = 0;  // range of the contiguous coordinate
  uint32_t count = 0;
  bool mixed = false;          // elements of more than one row
};

void write_svg(const std::string& path, const CanonicalLayout& plan, const Options& o,
               const std::vector<SmemLocation>& locs, const std::string& title) {
  const bool kmaj = *o.major == Major::K;
  std::map<uint32_t, Cell> cells;  // 16-byte cell address -> contents
  for (uint32_t mn = 0; mn < *o.mn; ++mn)
    for (uint32_t k = 0; k < *o.k; ++k) {
      const SmemLocation l = locs[size_t(mn) * *o.k + k];
      Cell& c = cells[l.byte & ~15u];
      const uint32_t row = kmaj ? mn : k, along = kmaj ? k : mn;
      if (c.count && c.row != row) c.mixed = true;
      if (!c.count) c.row = row;
      c.lo = std::min(c.lo, along), c.hi = std::max(c.hi, along);
      ++c.count;
    }
  std::set<uint32_t> lines;
  for (const auto& [addr, c] : cells) lines.insert(addr >> 7);
  constexpr int kCellW = 112, kCellH = 26, kLeft = 96;
  constexpr size_t kMaxLines = 2048;
  // Rows of the picture: each used 128-byte line, with a gap row where unused lines are skipped.
  std::vector<int64_t> rows;  // line index, or -n for "n lines skipped"
  int64_t prev = -1;
  for (uint32_t line : lines) {
    if (rows.size() >= kMaxLines) break;
    if (prev >= 0 && line != prev + 1) rows.push_back(-(int64_t(line) - prev - 1));
    rows.push_back(line);
    prev = line;
  }
  const int width = kLeft + 8 * kCellW + 24;
  const int kTop = 62 + 15 * int(wrap(plan.describe() + std::string(200, 'x'), 145).size());
  const int height = kTop + int(rows.size()) * kCellH + 40;
  const uint32_t repeat = swizzle_bits(plan.layout()).repeat_bytes();
  const ElementFormat f = plan.element_format();
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"DejaVu Sans Mono, monospace\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
  svg += fmt::format("<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
                     xml_escape(title));
  const std::string legend = fmt::format(
      "{} | Each cell = 16 bytes of shared memory, 8 cells = one 128-byte line; label = the "
      "elements it holds; colour = {} row{}{}.",
      plan.describe(), kmaj ? "mn" : "k", f.padded() ? "; grey = padding" : "",
      repeat ? fmt::format("; thick rule = swizzle pattern repeat ({} B)", repeat) : "");
  const auto text_lines = wrap(legend, 145);
  int ty = 42;
  for (const auto& l : text_lines) {
    svg += fmt::format("<text x=\"12\" y=\"{}\" font-size=\"11\">{}</text>\n", ty,
                       xml_escape(l));
    ty += 15;
  }
  for (int c = 0; c < 8; ++c)
    svg += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" "
                       "fill=\"#555\">+{}</text>\n",
                       kLeft + c * kCellW + kCellW / 2, kTop - 8, c * 16);
  int y = kTop;
  for (int64_t r : rows) {
    if (r < 0) {
      svg += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#888\">... {} unused "
                         "line{} ({} bytes) ...</text>\n",
                         kLeft + 8, y + 17, -r, r == -1 ? "" : "s", -r * 128);
      y += kCellH;
      continue;
    }
    const uint32_t line_addr = uint32_t(r) * 128;
    if (repeat && line_addr % repeat == 0)
      svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#222\" "
                         "stroke-width=\"2.5\"/>\n",
                         kLeft - 6, y, kLeft + 8 * kCellW, y);
    svg += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">0x{:05x}"
                       "</text>\n",
                       kLeft - 10, y + 17, line_addr);
    for (int c = 0; c < 8; ++c) {
      const uint32_t addr = line_addr + 16 * c;
      const int x = kLeft + c * kCellW;
      auto it = cells.find(addr);
      if (it == cells.end()) {
        svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f4f4\" "
                           "stroke=\"#ccc\"/>\n",
                           x, y, kCellW, kCellH);
        continue;
      }
      const Cell& cell = it->second;
      svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
                         "stroke=\"#666\"/>\n",
                         x, y, kCellW, kCellH, row_colour(cell.row));
      if (f.padded()) {
        const int data_w = kCellW * f.data_bytes_per_16b() / 16;
        svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#e4e4e4\" "
                           "stroke=\"#999\" stroke-dasharray=\"3,2\"/>\n",
                           x + data_w, y + 1, kCellW - data_w - 1, kCellH - 2);
      }
      const char* rn = kmaj ? "m" : "k";
      const char* cn = kmaj ? "k" : "m";
      std::string label =
          cell.lo == cell.hi ? fmt::format("{}{} {}{}", rn, cell.row, cn, cell.lo)
                             : fmt::format("{}{} {}{}-{}", rn, cell.row, cn, cell.lo, cell.hi);
      if (cell.mixed) label = fmt::format("{} elems {}{}+", cell.count, rn, cell.row);
      svg += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\">{}"
                         "</text>\n",
                         x + kCellW / 2, y + 17, label.size() > 14 ? 10 : 11, xml_escape(label));
    }
    y += kCellH;
  }
  if (lines.size() > kMaxLines)
    svg += fmt::format("<text x=\"12\" y=\"{}\" font-size=\"12\">(first {} lines of {})</text>\n",
                       y + 20, kMaxLines, lines.size());
  svg += "</svg>\n";
  std::ofstream out(path);
  if (!out) throw UsageError(fmt::format("--svg {}: cannot write the file", path));
  out << svg;
}

int run_layout(Args args) {
  const Options o = parse(args);
  auto fmt_ok = smem_element_format(*o.dtype, o.kind);
  if (!fmt_ok) throw UsageError(fmt_ok.error().message);
  const ElementFormat f = *fmt_ok;
  const SmemDesc d = decode_smem_desc(*o.desc, o.arch);
  const Violations violations = validate_smem_desc(d, o.arch);
  // A reserved layout code has no layout to show (the descriptor's other violations are warnings).
  if (has_tcgen05(o.arch) && (d.raw_layout_code == 3 || d.raw_layout_code == 5 ||
                              d.raw_layout_code == 7))
    throw UsageError(fmt::format("--desc 0x{:016x}: layout code {} (bits 61-63) is invalid; legal: "
                                 "0 none, 1 128B with 32B atoms, 2 128B, 4 64B, 6 32B (PTX ISA "
                                 "§9.7.16.4.1 Table 40)",
                                 *o.desc, d.raw_layout_code));
  auto plan_ok = CanonicalLayout::make(d, f, *o.major);
  if (!plan_ok) throw UsageError(plan_ok.error().message);
  const CanonicalLayout& plan = *plan_ok;
  if (plan.max_k() && *o.k > plan.max_k())
    throw UsageError(fmt::format(
        "--k {}: one K-major {} descriptor covers K < {} {} elements (its {}-byte swizzle row); "
        "the next K slice needs a descriptor whose start address is {} bytes further",
        *o.k, layout_label(d.layout), plan.max_k(), dtype_name(*o.dtype), plan.row_bytes(),
        plan.row_bytes()));

  std::vector<SmemLocation> locs(size_t(*o.mn) * *o.k);
  plan.locate_tile(0, *o.mn, 0, *o.k, locs.data());
  const std::string title =
      fmt::format("{}-major {} {} x {} (mn x k), descriptor 0x{:016x} ({})",
                  *o.major == Major::K ? "K" : "MN", dtype_name(*o.dtype), *o.mn, *o.k, *o.desc,
                  arch_name(o.arch));
  if (o.svg) write_svg(*o.svg, plan, o, locs, title);

  if (o.json) {
    nlohmann::json j;
    j["arch"] = std::string(arch_name(o.arch));
    j["desc"] = fmt::format("0x{:016x}", *o.desc);
    nlohmann::json dj;
    dj["start_address"] = d.start_address;
    dj["lbo"] = d.lbo;
    dj["sbo"] = d.sbo;
    dj["version"] = d.version;
    dj["base_offset"] = d.base_offset;
    dj["lbo_mode"] = d.lbo_mode;
    dj["layout"] = std::string(swizzle_mode_name(d.layout));
    dj["violations"] = nlohmann::json::array();
    for (const auto& v : violations) dj["violations"].push_back(v.to_string());
    j["descriptor"] = dj;
    j["dtype"] = std::string(dtype_name(*o.dtype));
    j["bits"] = f.bits;
    j["elements_per_16b"] = f.per_16b;
    j["padded"] = f.padded();
    j["major"] = std::string(major_name(*o.major));
    j["mn"] = *o.mn;
    j["k"] = *o.k;
    j["max_k"] = plan.max_k() ? nlohmann::json(plan.max_k()) : nlohmann::json(nullptr);
    j["formula"] = plan.describe();
    nlohmann::json addrs = nlohmann::json::array(), bits = nlohmann::json::array();
    for (uint32_t mn = 0; mn < *o.mn; ++mn) {
      nlohmann::json row = nlohmann::json::array(), brow = nlohmann::json::array();
      for (uint32_t k = 0; k < *o.k; ++k) {
        row.push_back(locs[size_t(mn) * *o.k + k].byte);
        brow.push_back(locs[size_t(mn) * *o.k + k].bit);
      }
      addrs.push_back(std::move(row));
      bits.push_back(std::move(brow));
    }
    j["addresses"] = std::move(addrs);
    if (f.sub_byte()) j["bit_offsets"] = std::move(bits);
    if (o.svg) j["svg"] = *o.svg;
    fmt::print("{}\n", j.dump());
    return 0;
  }

  fmt::print("descriptor 0x{:016x} ({}): start 0x{:x}, LBO {} B, SBO {} B, base_offset {}, "
             "layout {}\n",
             *o.desc, arch_name(o.arch), d.start_address, d.lbo, d.sbo, d.base_offset,
             layout_label(d.layout));
  for (const auto& v : violations) fmt::print("warning: {}\n", v.to_string());
  fmt::print("operand: {} ({}), {}-major, {} x {} (mn x k)\n", dtype_name(*o.dtype),
             describe_format(f), *o.major == Major::K ? "K" : "MN", *o.mn, *o.k);
  fmt::print("{}\n", plan.describe());
  uint32_t max_byte = 0;
  for (const auto& l : locs) max_byte = std::max(max_byte, l.byte);
  const int hexw = std::max(4, int(fmt::format("{:x}", max_byte).size()));
  const int cellw = hexw + (f.sub_byte() ? 2 : 0);
  fmt::print("shared-memory byte address of element (mn, k), hex{}:\n",
             f.sub_byte() ? " (.bit = bit offset in the byte)" : "");
  constexpr uint32_t kBlock = 16;
  for (uint32_t k0 = 0; k0 < *o.k; k0 += kBlock) {
    const uint32_t k1 = std::min(*o.k, k0 + kBlock);
    std::string head = fmt::format("{:>6} |", "mn\\k");
    for (uint32_t k = k0; k < k1; ++k) head += fmt::format(" {:>{}}", k, cellw);
    fmt::print("{}\n", head);
    for (uint32_t mn = 0; mn < *o.mn; ++mn) {
      std::string line = fmt::format("{:>6} |", mn);
      for (uint32_t k = k0; k < k1; ++k) {
        const SmemLocation l = locs[size_t(mn) * *o.k + k];
        line += f.sub_byte() ? fmt::format(" {:0{}x}.{}", l.byte, hexw, l.bit)
                             : fmt::format(" {:0{}x}", l.byte, hexw);
      }
      fmt::print("{}\n", line);
    }
    if (k1 < *o.k) fmt::print("\n");
  }
  if (o.svg) fmt::print("svg: {}\n", *o.svg);
  return 0;
}

}  // namespace

TCSIM_COMMAND(layout, kUsage, run_layout);

}  // namespace tcsim::cli
