#include "tools/spec/output_dir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tools/spec/input_file.h"
#include "tools/spec/json_limits.h"
#include "tools/spec/npy.h"
#include "tools/spec/spec_error.h"

namespace tcsim::spec {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::optional<SpecDType> dtype_from_descr(const std::string& d) {
  // The storage descr of the plain types; everything else needs the manifest to be read right.
  for (SpecDType t : {SpecDType::I8, SpecDType::U8, SpecDType::I16, SpecDType::U16, SpecDType::I32,
                      SpecDType::U32, SpecDType::I64, SpecDType::U64, SpecDType::F16, SpecDType::F32,
                      SpecDType::F64})
    if (info(t).npy_descr == d) return t;
  if (d == "|b1") return SpecDType::U8;
  return std::nullopt;
}

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw SpecError(fmt::format("{}: {}", where, what));
}

// A printf.txt of at most this size is read (tcsim caps what it captures far below; a larger file
// is not an output of these tools).
constexpr uint64_t kMaxPrintfFile = uint64_t{1} << 30;

std::string read_text_file(const fs::path& p) {
  std::error_code ec;
  const auto size = fs::file_size(p, ec);
  if (ec) bad(p.string(), fmt::format("cannot read: {}", ec.message()));
  if (size > kMaxPrintfFile) bad(p.string(), fmt::format("{} bytes: larger than any printf capture ({} bytes)", size, kMaxPrintfFile));
  std::ifstream f(p, std::ios::binary);
  std::string s(size, '\0');
  f.read(s.data(), static_cast<std::streamsize>(size));
  if (!f) bad(p.string(), "read failed");
  return s;
}

}  // namespace

uint64_t count_lines(std::string_view text) {
  uint64_t n = static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n'));
  return n + (!text.empty() && text.back() != '\n');
}

std::string manifest_spec_path(const std::string& spec) {
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(spec, ec), ec);
  if (ec || spec.empty()) return spec;
  std::vector<fs::path> roots;
  for (fs::path d = abs.parent_path(); !d.empty(); d = d.parent_path()) {
    if (fs::exists(d / ".git", ec)) {
      roots.push_back(d);
      break;
    }
    if (d == d.root_path()) break;
  }
#ifdef TCSIM_SOURCE_ROOT
  roots.push_back(fs::weakly_canonical(fs::path(TCSIM_SOURCE_ROOT), ec));
#endif
  for (const fs::path& r : roots) {
    const fs::path rel = abs.lexically_relative(r);
    if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  }
  return spec;
}

uint64_t OutputArray::count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  return n;
}

void write_output_dir(const std::string& dir, const RunInfo& run, const std::vector<OutputArray>& outputs) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) bad(dir, fmt::format("cannot create the output directory: {}", ec.message()));
  Json m;
  m["version"] = 1;
  m["tool"] = run.tool;
  m["arch"] = run.arch;
  m["spec"] = manifest_spec_path(run.spec);
  m["kernel"] = run.kernel;
  if (run.cycles) m["cycles"] = *run.cycles;
  if (run.seed) m["seed"] = *run.seed;
  for (const auto& [k, v] : run.extra) m[k] = v;
  if (run.tool == "tcsim" || !run.approx_ops.empty()) m["approx_ops"] = run.approx_ops;
  if (run.tool == "tcsim" || !run.findings.empty()) m["findings"] = run.findings;
  Json outs = Json::object();
  for (const auto& o : outputs) {
    const std::string file = o.name + ".npy";
    write_npy((fs::path(dir) / file).string(), std::string(info(o.dtype).npy_descr), o.shape,
              o.data.data(), o.data.size());
    outs[o.name] = Json{{"dtype", std::string(name(o.dtype))}, {"shape", o.shape}, {"file", file}};
  }
  m["outputs"] = outs;
  if (run.printf_output) {
    const PrintfCapture& pc = *run.printf_output;
    Json pj;
    pj["file"] = "printf.txt";
    pj["bytes"] = pc.text.size();
    pj["lines"] = count_lines(pc.text);
    if (pc.records) pj["records"] = *pc.records;
    if (pc.dropped) pj["dropped"] = *pc.dropped;
    if (pc.fifo_bytes) pj["fifo_bytes"] = *pc.fifo_bytes;
    m["printf"] = pj;
    const std::string ppath = (fs::path(dir) / "printf.txt").string();
    if (!pc.text.empty()) {
      std::ofstream pf(ppath, std::ios::binary | std::ios::trunc);
      if (!pf) bad(ppath, "cannot create the file");
      pf.write(pc.text.data(), static_cast<std::streamsize>(pc.text.size()));
      if (!pf) bad(ppath, "write failed");
    } else {
      fs::remove(ppath, ec);  // a stale file of an earlier run would contradict "bytes": 0
    }
  }
  const std::string path = (fs::path(dir) / "manifest.json").string();
  std::ofstream f(path, std::ios::trunc);
  if (!f) bad(path, "cannot create the file");
  f << m.dump(2) << '\n';
  if (!f) bad(path, "write failed");
}

OutputDir read_output_dir(const std::string& dir) {
  OutputDir r;
  r.dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) bad(dir, "not a directory (expected an output directory of `run --out`)");
  const fs::path mpath = fs::path(dir) / "manifest.json";
  if (fs::exists(mpath, ec)) {
    r.has_manifest = true;
    std::string text;
    try {
      text = read_regular_file(mpath.string(), kMaxSpecBytes);
    } catch (const InputFileError& e) {
      bad(mpath.string(), fmt::format("cannot be read: it {}", e.what()));
    }
    Json m = parse_json_bounded<Json>(text, mpath.string());
    if (!m.is_object() || !m.contains("outputs") || !m["outputs"].is_object())
      bad(mpath.string(), "no \"outputs\" object");
    auto str = [&](const char* k) { return m.contains(k) && m[k].is_string() ? m[k].get<std::string>() : ""; };
    r.run.tool = str("tool");
    r.run.arch = str("arch");
    r.run.spec = str("spec");
    r.run.kernel = str("kernel");
    if (m.contains("cycles") && m["cycles"].is_number_unsigned()) r.run.cycles = m["cycles"].get<uint64_t>();
    if (m.contains("seed") && m["seed"].is_number_unsigned()) r.run.seed = m["seed"].get<uint64_t>();
    if (m.contains("approx_ops") && m["approx_ops"].is_array())
      for (const auto& a : m["approx_ops"])
        if (a.is_string()) r.run.approx_ops.push_back(a.get<std::string>());
    if (m.contains("printf") && m["printf"].is_object()) {
      const Json& pj = m["printf"];
      PrintfCapture pc;
      const std::string file = pj.contains("file") && pj["file"].is_string() ? pj["file"].get<std::string>() : "printf.txt";
      const fs::path ppath = fs::path(dir) / file;
      const uint64_t bytes = pj.contains("bytes") && pj["bytes"].is_number_unsigned() ? pj["bytes"].get<uint64_t>() : 0;
      if (fs::exists(ppath, ec)) pc.text = read_text_file(ppath);
      else if (bytes) bad(mpath.string(), fmt::format("printf: the manifest says {} bytes in {}, which is missing", bytes, ppath.string()));
      if (pc.text.size() != bytes)
        bad(ppath.string(), fmt::format("holds {} bytes, but the manifest says {}", pc.text.size(), bytes));
      if (pj.contains("records") && pj["records"].is_number_unsigned()) pc.records = pj["records"].get<uint64_t>();
      if (pj.contains("dropped") && pj["dropped"].is_number_unsigned()) pc.dropped = pj["dropped"].get<uint64_t>();
      if (pj.contains("fifo_bytes") && pj["fifo_bytes"].is_number_unsigned()) pc.fifo_bytes = pj["fifo_bytes"].get<uint64_t>();
      r.run.printf_output = std::move(pc);
    }
    for (const auto& [oname, o] : m["outputs"].items()) {
      const std::string where = fmt::format("{}: outputs.{}", mpath.string(), oname);
      if (!o.is_object() || !o.contains("dtype") || !o["dtype"].is_string() || !o.contains("shape") ||
          !o["shape"].is_array())
        bad(where, "expected {\"dtype\": ..., \"shape\": [...], \"file\": ...}");
      OutputArray a;
      a.name = oname;
      const auto t = parse_spec_dtype(o["dtype"].get<std::string>());
      if (!t) bad(where, fmt::format("unknown dtype \"{}\" (legal: {})", o["dtype"].get<std::string>(), legal_spec_dtypes()));
      a.dtype = *t;
      for (const auto& d : o["shape"]) {
        if (!d.is_number_unsigned()) bad(where, "shape must be a list of non-negative integers");
        a.shape.push_back(d.get<uint64_t>());
      }
      const std::string file = o.contains("file") && o["file"].is_string() ? o["file"].get<std::string>() : oname + ".npy";
      const std::string fpath = (fs::path(dir) / file).string();
      if (!fs::exists(fpath, ec)) bad(where, fmt::format("the manifest lists {}, which is missing", fpath));
      NpyArray n = read_npy(fpath);
      if (n.header.item_size != elem_bytes(a.dtype) || n.header.count() != a.count())
        bad(fpath, fmt::format("holds {} elements of {} bytes ('{}'), but the manifest says {} [{}]",
                               n.header.count(), n.header.item_size, n.header.descr, name(a.dtype),
                               fmt::join(a.shape, ", ")));
      a.data = std::move(n.data);
      r.outputs.push_back(std::move(a));
    }
    return r;
  }
  if (fs::exists(fs::path(dir) / "printf.txt", ec))
    r.run.printf_output = PrintfCapture{read_text_file(fs::path(dir) / "printf.txt"), std::nullopt, std::nullopt,
                                        std::nullopt};
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".npy") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    NpyArray n = read_npy(p.string());
    const auto t = dtype_from_descr(n.header.descr);
    if (!t) bad(p.string(), fmt::format("storage type '{}' has no tcsim dtype (and no manifest.json names one)", n.header.descr));
    OutputArray a;
    a.name = p.stem().string();
    a.dtype = *t;
    a.shape = n.header.shape;
    a.data = std::move(n.data);
    r.outputs.push_back(std::move(a));
  }
  return r;
}

}  // namespace tcsim::spec
