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

}  // namespace

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
  m["spec"] = run.spec;
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
