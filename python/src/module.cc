// The Python module `tcsim` (python/README.md): the simulator with numpy arrays in and out.
//
//   dev = tcsim.Device(arch="sm_100a")              # a B200; "sm_90a": an H200
//   mod = dev.load_ptx(open("k.ptx").read())
//   r = dev.launch(mod.kernel("saxpy"), grid=4, block=256, args=[2.0, x, y, n])
//   r.outputs[2]  -> y after the launch (a new array);  r.cycles, r.timing, r.findings
//   tcsim.run_spec("kernels/tcgen05/gemm_bf16.json")  -> {"outputs": {"D": array}, "cycles": ...}
//
// Arguments, in the kernel's .param order: a numpy array becomes a device buffer (copied in, and
// copied out into LaunchResult.outputs); a TensorMap encodes a map over an array (the same array
// object as an argument shares the buffer); a Python int or float is packed by the parameter's
// size (1/2/4/8-byte integers, f32/f64), a numpy scalar or `bytes` by its own bytes (which must
// have the parameter's size) — exactly what cuLaunchKernel copies (sim/api.h).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isa/descriptors/tensor_map.h"
#include "sim/api.h"
#include "sim/report/finding.h"
#include "models/machine/machine_config.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/params.h"
#include "tools/spec/runner.h"
#include "tools/spec/spec_error.h"
#include "tools/spec/tensor_map_spec.h"
#include "tools/tcsim/sim_backend.h"

namespace py = pybind11;
using namespace tcsim;

namespace {

struct DeviceHolder {
  std::unique_ptr<sim::Device> dev;
};

struct PyModule {
  std::shared_ptr<DeviceHolder> dev;
  const sim::Module* mod = nullptr;
  std::string name;
  std::vector<std::string> kernels;
};

struct PyKernel {
  std::shared_ptr<DeviceHolder> dev;
  const sim::Module* mod = nullptr;
  std::string name;
  std::vector<sim::ParamInfo> params;
};

// A tiled tensor map over a numpy array: the arguments of cuTensorMapEncodeTiled, named as a launch
// spec's tensor_maps entry (LAUNCH_SPEC.md), with the array in place of the global address.
struct PyTensorMap {
  py::array array;
  isa::TensorMapParams p;
  uint64_t offset_bytes = 0;
};

struct LaunchResult {
  uint64_t cycles = 0, warp_instructions = 0, thread_instructions = 0;
  double ms = 0;
  std::vector<std::string> findings, approx_ops;
  std::string findings_summary;
  py::list outputs;
};

py::exception<std::runtime_error>* g_sim_error = nullptr;

sim::Dim3 dim3_of(const py::object& o, const char* what) {
  if (py::isinstance<py::int_>(o)) return {o.cast<uint32_t>(), 1, 1};
  const auto v = o.cast<std::vector<uint32_t>>();
  if (v.empty() || v.size() > 3) throw py::value_error(fmt::format("{}: give 1 to 3 dimensions", what));
  return {v[0], v.size() > 1 ? v[1] : 1u, v.size() > 2 ? v[2] : 1u};
}

template <class T>
T enum_of(std::optional<T> (*parse)(std::string_view), const std::string& s, const char* what) {
  const auto v = parse(s);
  if (!v) throw py::value_error(fmt::format("TensorMap: {} '{}' is not one LAUNCH_SPEC.md names", what, s));
  return *v;
}

PyTensorMap make_tensor_map(py::array array, const std::string& dtype, std::vector<uint64_t> global_dims,
                            std::vector<uint64_t> global_strides_bytes, std::vector<uint32_t> box_dims,
                            std::vector<uint32_t> element_strides, const std::string& interleave, const std::string& swizzle,
                            const std::string& l2_promotion, const std::string& oob_fill, uint64_t offset_bytes) {
  PyTensorMap t;
  t.array = array;
  t.offset_bytes = offset_bytes;
  const uint32_t rank = static_cast<uint32_t>(global_dims.size());
  if (rank < 1 || rank > 5) throw py::value_error("TensorMap: global_dims must have 1 to 5 entries");
  if (element_strides.empty()) element_strides.assign(rank, 1);
  if (box_dims.size() != rank || element_strides.size() != rank || global_strides_bytes.size() + 1 != rank)
    throw py::value_error("TensorMap: box_dims and element_strides need rank entries, global_strides_bytes rank - 1");
  t.p.data_type = enum_of(spec::parse_tm_dtype, dtype, "dtype");
  t.p.rank = rank;
  for (uint32_t i = 0; i < rank; ++i) {
    t.p.global_dim[i] = global_dims[i];
    t.p.box_dim[i] = box_dims[i];
    t.p.element_strides[i] = element_strides[i];
    if (i + 1 < rank) t.p.global_strides[i] = global_strides_bytes[i];
  }
  t.p.interleave = enum_of(spec::parse_tm_interleave, interleave, "interleave");
  t.p.swizzle = enum_of(spec::parse_tm_swizzle, swizzle, "swizzle");
  t.p.l2_promotion = enum_of(spec::parse_tm_l2_promotion, l2_promotion, "l2_promotion");
  t.p.oob_fill = enum_of(spec::parse_tm_oob_fill, oob_fill, "oob_fill");
  return t;
}

// The bytes of a Python scalar for a parameter of `size` bytes.
std::vector<std::byte> scalar_bytes(const py::handle& a, uint32_t size, size_t index, const sim::ParamInfo& p) {
  std::vector<std::byte> out(size);
  auto bad = [&](const std::string& why) {
    return py::type_error(fmt::format("args[{}] (parameter {} '{}', {} bytes): {}", index, index, p.name, size, why));
  };
  if (py::isinstance<py::bytes>(a) || py::isinstance<py::bytearray>(a)) {
    const std::string s = py::module_::import("builtins").attr("bytes")(a).cast<std::string>();
    if (s.size() != size) throw bad(fmt::format("{} bytes given", s.size()));
    std::memcpy(out.data(), s.data(), size);
    return out;
  }
  if (py::isinstance<py::bool_>(a) || py::isinstance<py::int_>(a)) {
    // Two's complement of the value in `size` bytes; it must fit as signed or unsigned.
    const py::int_ v = py::reinterpret_borrow<py::int_>(a);
    const bool neg = v < py::int_(0);
    if (size > 8) throw bad("an integer for a parameter wider than 8 bytes");
    const unsigned __int128 lim = static_cast<unsigned __int128>(1) << (8 * size);
    __int128 x = 0;
    try {
      x = neg ? static_cast<__int128>(v.cast<int64_t>()) : static_cast<__int128>(v.cast<uint64_t>());
    } catch (const py::cast_error&) {
      throw bad("the integer does not fit in 64 bits");
    }
    if ((!neg && static_cast<unsigned __int128>(x) >= lim) || (neg && -x > static_cast<__int128>(lim / 2)))
      throw bad(fmt::format("{} does not fit", py::str(a).cast<std::string>()));
    const uint64_t bits = static_cast<uint64_t>(x);
    std::memcpy(out.data(), &bits, size);
    return out;
  }
  if (py::isinstance<py::float_>(a)) {
    const double d = a.cast<double>();
    if (size == 4) {
      const float f = static_cast<float>(d);
      std::memcpy(out.data(), &f, 4);
    } else if (size == 8) {
      std::memcpy(out.data(), &d, 8);
    } else {
      throw bad("a float for a parameter that is neither 4 (f32) nor 8 (f64) bytes");
    }
    return out;
  }
  // numpy scalars (np.float32(1), np.uint16(3), ...): their own bytes.
  if (py::hasattr(a, "dtype") && py::hasattr(a, "tobytes") && !py::isinstance<py::array>(a)) {
    const std::string s = a.attr("tobytes")().cast<std::string>();
    if (s.size() != size) throw bad(fmt::format("a {}-byte numpy scalar", s.size()));
    std::memcpy(out.data(), s.data(), size);
    return out;
  }
  throw bad(fmt::format("cannot pass a {}", py::str(py::type::of(a)).cast<std::string>()));
}

class PyDevice {
 public:
  PyDevice(const std::string& arch, unsigned threads, uint64_t seed, uint64_t max_steps) {
    const auto a = isa::parse_arch(arch);
    if (!a) throw py::value_error(fmt::format("arch '{}' is not one tcsim models (sm_100a, sm_90a, sm_100f, sm_103a)", arch));
    sim::DeviceOptions o;
    o.host_threads = threads;
    o.seed = seed;
    o.schedule = seed ? sim::Schedule::Random : sim::Schedule::Default;
    o.max_steps = max_steps;
    holder_ = std::make_shared<DeviceHolder>();
    holder_->dev = std::make_unique<sim::Device>(*a, o);
  }

  std::string arch() const { return std::string(isa::arch_name(holder_->dev->arch())); }

  PyModule load_ptx(const std::string& text, const std::string& name) {
    PyModule m;
    m.dev = holder_;
    try {
      m.mod = &holder_->dev->load_ptx(text, name);
      m.kernels = holder_->dev->kernel_names(*m.mod);
    } catch (const sim::SimError& e) {
      throw py::value_error(e.what());
    }
    m.name = name;
    return m;
  }

  LaunchResult launch(const PyKernel& k, const py::object& grid, const py::object& block, const py::list& args,
                      const py::object& cluster, uint32_t smem) {
    sim::Device& d = *holder_->dev;
    if (k.dev != holder_) throw py::value_error("launch: the kernel belongs to another Device");
    if (args.size() != k.params.size()) {
      std::string ps;
      for (const auto& p : k.params) ps += fmt::format("{}{} ({} bytes)", ps.empty() ? "" : ", ", p.name, p.size);
      throw py::value_error(fmt::format("launch of {}: {} arguments given, the kernel takes {}: {}", k.name, args.size(),
                                        k.params.size(), ps.empty() ? "none" : ps));
    }
    std::vector<spec::ParamInfo> pi;
    for (const auto& p : k.params) pi.push_back({p.name, p.size, p.align});
    const spec::ParamLayout layout = spec::layout_params(pi, k.name);
    std::vector<std::byte> params(layout.total);
    // Device buffers, one per distinct array object (arguments and tensor maps' arrays).
    struct Buf {
      py::array array;
      uint64_t addr;
    };
    std::vector<Buf> bufs;
    std::vector<uint64_t> allocated;
    auto buffer_of = [&](const py::array& a, const std::string& what) -> uint64_t {
      for (const auto& b : bufs)
        if (b.array.ptr() == a.ptr()) return b.addr;
      if (!(a.flags() & py::array::c_style))
        throw py::value_error(fmt::format("{}: the array must be C-contiguous (np.ascontiguousarray)", what));
      const uint64_t n = static_cast<uint64_t>(a.nbytes());
      const uint64_t addr = d.malloc(std::max<uint64_t>(n, 1), 512);
      allocated.push_back(addr);
      if (n) d.copy_to_device(addr, a.data(), n);
      bufs.push_back({a, addr});
      return addr;
    };
    struct Freer {
      sim::Device& d;
      std::vector<uint64_t>& a;
      ~Freer() {
        for (uint64_t x : a) d.free(x);
      }
    } freer{d, allocated};
    for (size_t i = 0; i < args.size(); ++i) {
      const py::handle a = args[i];
      const sim::ParamInfo& p = k.params[i];
      std::byte* dst = params.data() + layout.offsets[i];
      const std::string what = fmt::format("args[{}] (parameter '{}')", i, p.name);
      if (py::isinstance<py::array>(a)) {
        if (p.size != 8) throw py::type_error(fmt::format("{}: an array (a device pointer) for a {}-byte parameter", what, p.size));
        const uint64_t addr = buffer_of(py::reinterpret_borrow<py::array>(a), what);
        std::memcpy(dst, &addr, 8);
      } else if (py::isinstance<PyTensorMap>(a)) {
        if (p.size != 128) throw py::type_error(fmt::format("{}: a TensorMap for a {}-byte parameter", what, p.size));
        PyTensorMap t = a.cast<PyTensorMap>();
        t.p.global_address = buffer_of(t.array, what) + t.offset_bytes;
        const isa::Violations v = isa::validate_tensor_map(t.p, d.arch());
        if (!v.empty()) {
          std::string why;
          for (const auto& x : v) why += (why.empty() ? "" : "; ") + x.to_string();
          throw py::value_error(fmt::format("{}: the tensor map is rejected (as cuTensorMapEncodeTiled would): {}", what, why));
        }
        const auto bytes = isa::encode_tensor_map(t.p, d.arch());
        if (!bytes) throw py::value_error(fmt::format("{}: {}", what, bytes.error().message));
        std::memcpy(dst, bytes->data(), 128);
      } else {
        const std::vector<std::byte> b = scalar_bytes(a, p.size, i, p);
        std::memcpy(dst, b.data(), b.size());
      }
    }
    sim::LaunchConfig cfg;
    cfg.grid = dim3_of(grid, "grid");
    cfg.block = dim3_of(block, "block");
    cfg.cluster = cluster.is_none() ? sim::Dim3{1, 1, 1} : dim3_of(cluster, "cluster");
    cfg.explicit_cluster = !cluster.is_none();
    cfg.dynamic_smem_bytes = smem;
    sim::LaunchResult r;
    {
      py::gil_scoped_release nogil;
      r = d.launch(*k.mod, k.name, cfg, params);
    }
    LaunchResult out;
    out.cycles = r.cycles;
    out.warp_instructions = r.warp_instructions;
    out.thread_instructions = r.thread_instructions;
    out.ms = static_cast<double>(r.cycles) / (models::machine_config(d.arch()).clock_mhz * 1e3);
    out.findings = r.finding_lines();
    out.findings_summary = sim::summarize_findings(r.findings);
    out.approx_ops = r.approx_ops;
    for (size_t i = 0; i < args.size(); ++i) {
      if (!py::isinstance<py::array>(args[i])) {
        out.outputs.append(py::none());
        continue;
      }
      const py::array a = py::reinterpret_borrow<py::array>(args[i]);
      py::array copy(a.dtype(), std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim()));
      uint64_t addr = 0;
      for (const auto& b : bufs)
        if (b.array.ptr() == a.ptr()) addr = b.addr;
      if (a.nbytes()) d.copy_from_device(copy.mutable_data(), addr, static_cast<uint64_t>(a.nbytes()));
      out.outputs.append(copy);
    }
    return out;
  }

  std::shared_ptr<DeviceHolder> holder_;
};

py::dict run_spec(const std::string& path, const std::optional<std::string>& arch_override, unsigned threads, uint64_t seed) {
  try {
    const spec::LaunchSpec s = spec::load_spec(path);
    const std::string ptx = spec::read_ptx(s);
    const std::string arch_name = arch_override ? *arch_override : spec::resolve_arch(s, ptx);
    const auto arch = isa::parse_arch(arch_name);
    if (!arch) throw py::value_error(fmt::format("{}: architecture {} is not one tcsim models", path, arch_name));
    sim::DeviceOptions o;
    o.host_threads = threads;
    o.seed = seed;
    o.schedule = seed ? sim::Schedule::Random : sim::Schedule::Default;
    spec::RunResult r;
    {
      py::gil_scoped_release nogil;
      sim::Device dev(*arch, o);
      cli::SimBackend be(dev, s.path);
      r = spec::run_spec(s, ptx, be);
    }
    py::dict outputs;
    py::module_ np = py::module_::import("numpy");
    for (const auto& a : r.outputs) {
      py::dtype dt(std::string(spec::info(a.dtype).npy_descr));
      std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
      py::array arr(dt, shape);
      std::memcpy(arr.mutable_data(), a.data.data(), a.data.size());
      outputs[py::str(a.name)] = arr;
    }
    py::dict d;
    d["kernel"] = r.kernel;
    d["arch"] = arch_name;
    d["cycles"] = r.outcome.cycles.value_or(0);
    d["findings"] = r.outcome.finding_lines;
    d["findings_summary"] = r.outcome.findings_summary;
    d["approx_ops"] = r.outcome.approx_ops;
    d["outputs"] = outputs;
    return d;
  } catch (const spec::SpecError& e) {
    throw py::value_error(e.what());
  }
}

}  // namespace

PYBIND11_MODULE(_tcsim, m) {
  m.doc() = "tcsim: the Blackwell/Hopper tensor-core simulator, with numpy arrays in and out";
  static py::exception<std::runtime_error> sim_error(m, "SimError");
  g_sim_error = &sim_error;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const sim::SimError& e) {
      PyErr_SetString(g_sim_error->ptr(), e.what());
    }
  });

  py::class_<PyTensorMap>(m, "TensorMap",
                          "A tiled TMA descriptor over a numpy array: the arguments of cuTensorMapEncodeTiled, spelled "
                          "as a launch spec's tensor_maps (dims and strides innermost first, strides in bytes)")
      .def(py::init(&make_tensor_map), py::arg("array"), py::arg("dtype"), py::arg("global_dims"),
           py::arg("global_strides_bytes"), py::arg("box_dims"), py::arg("element_strides") = std::vector<uint32_t>{},
           py::arg("interleave") = "none", py::arg("swizzle") = "none", py::arg("l2_promotion") = "none",
           py::arg("oob_fill") = "none", py::arg("offset_bytes") = 0)
      .def_readonly("array", &PyTensorMap::array);

  py::class_<PyKernel>(m, "Kernel")
      .def_readonly("name", &PyKernel::name)
      .def_property_readonly("params", [](const PyKernel& k) {
        py::list l;
        for (const auto& p : k.params) l.append(py::make_tuple(p.name, p.size, p.align));
        return l;
      })
      .def("__repr__", [](const PyKernel& k) { return fmt::format("<tcsim.Kernel {} ({} parameters)>", k.name, k.params.size()); });

  py::class_<PyModule>(m, "Module")
      .def_readonly("name", &PyModule::name)
      .def_readonly("kernels", &PyModule::kernels)
      .def("kernel", [](const PyModule& mod, const std::string& name) {
        // An exact .entry name, or a unique substring of one (as a launch spec's "kernel").
        std::vector<std::string> hits;
        for (const auto& k : mod.kernels)
          if (k == name) hits = {k};
        if (hits.empty())
          for (const auto& k : mod.kernels)
            if (k.find(name) != std::string::npos) hits.push_back(k);
        if (hits.size() != 1)
          throw py::key_error(fmt::format("{} kernels of {} match '{}' (its kernels: {})", hits.size(), mod.name, name,
                                          fmt::join(mod.kernels, ", ")));
        PyKernel k;
        k.dev = mod.dev;
        k.mod = mod.mod;
        k.name = hits[0];
        k.params = mod.dev->dev->kernel_params(*mod.mod, k.name);
        return k;
      }, py::arg("name"));

  py::class_<LaunchResult>(m, "LaunchResult")
      .def_readonly("cycles", &LaunchResult::cycles)
      .def_readonly("outputs", &LaunchResult::outputs)
      .def_readonly("findings", &LaunchResult::findings,
                    "the rules of the PTX ISA the kernel broke while it ran (sim/report), one line per occurrence kept")
      .def_readonly("findings_summary", &LaunchResult::findings_summary, "one line per rule and site, with counts")
      .def_readonly("approx_ops", &LaunchResult::approx_ops, ".approx instructions that ran (not bit-exact by design)")
      .def_property_readonly("timing", [](const LaunchResult& r) {
        py::dict d;
        d["cycles"] = r.cycles;
        d["ms"] = r.ms;
        d["warp_instructions"] = r.warp_instructions;
        d["thread_instructions"] = r.thread_instructions;
        return d;
      })
      .def("__getitem__", [](const LaunchResult& r, size_t i) -> py::object {
        if (i >= r.outputs.size()) throw py::index_error();
        return r.outputs[i];
      });

  py::class_<PyDevice>(m, "Device", "A simulated GPU: sm_100a (B200, default) or sm_90a (H200)")
      .def(py::init<const std::string&, unsigned, uint64_t, uint64_t>(), py::arg("arch") = "sm_100a", py::arg("threads") = 0,
           py::arg("seed") = 0, py::arg("max_steps") = 0)
      .def_property_readonly("arch", &PyDevice::arch)
      .def("load_ptx", &PyDevice::load_ptx, py::arg("ptx"), py::arg("name") = "module.ptx")
      .def("launch", &PyDevice::launch, py::arg("kernel"), py::arg("grid"), py::arg("block"), py::arg("args"),
           py::arg("cluster") = py::none(), py::arg("smem") = 0);

  m.def("run_spec", &run_spec, py::arg("path"), py::arg("arch") = py::none(), py::arg("threads") = 0, py::arg("seed") = 0,
        "Runs a launch spec (LAUNCH_SPEC.md) like `tcsim run`: returns kernel, arch, cycles, findings, approx_ops and "
        "outputs (name -> numpy array, stored as the output directory stores them)");
}
