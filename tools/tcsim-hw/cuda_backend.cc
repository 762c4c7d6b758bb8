#include "tools/tcsim-hw/cuda_backend.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "tools/spec/ptx_params.h"
#include "tools/spec/spec_error.h"

namespace tcsim::hw {

// The spec library's tensor-map enums (isa's) must carry cuda.h's numeric values: it casts them.
using spec::TmDataType;
static_assert(int(TmDataType::UInt8) == CU_TENSOR_MAP_DATA_TYPE_UINT8);
static_assert(int(TmDataType::UInt16) == CU_TENSOR_MAP_DATA_TYPE_UINT16);
static_assert(int(TmDataType::UInt32) == CU_TENSOR_MAP_DATA_TYPE_UINT32);
static_assert(int(TmDataType::Int32) == CU_TENSOR_MAP_DATA_TYPE_INT32);
static_assert(int(TmDataType::UInt64) == CU_TENSOR_MAP_DATA_TYPE_UINT64);
static_assert(int(TmDataType::Int64) == CU_TENSOR_MAP_DATA_TYPE_INT64);
static_assert(int(TmDataType::Float16) == CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
static_assert(int(TmDataType::Float32) == CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
static_assert(int(TmDataType::Float64) == CU_TENSOR_MAP_DATA_TYPE_FLOAT64);
static_assert(int(TmDataType::BFloat16) == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
static_assert(int(TmDataType::Float32Ftz) == CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ);
static_assert(int(TmDataType::TFloat32) == CU_TENSOR_MAP_DATA_TYPE_TFLOAT32);
static_assert(int(TmDataType::TFloat32Ftz) == CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ);
static_assert(int(TmDataType::U4x16Align8B) == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B);
static_assert(int(TmDataType::U4x16Align16B) == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B);
static_assert(int(TmDataType::U6x16Align16B) == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B);
static_assert(int(spec::TmInterleave::B16) == CU_TENSOR_MAP_INTERLEAVE_16B);
static_assert(int(spec::TmInterleave::B32) == CU_TENSOR_MAP_INTERLEAVE_32B);
static_assert(int(spec::TmSwizzle::B32) == CU_TENSOR_MAP_SWIZZLE_32B);
static_assert(int(spec::TmSwizzle::B64) == CU_TENSOR_MAP_SWIZZLE_64B);
static_assert(int(spec::TmSwizzle::B128) == CU_TENSOR_MAP_SWIZZLE_128B);
static_assert(int(spec::TmSwizzle::B128Atom32B) == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B);
static_assert(int(spec::TmSwizzle::B128Atom32BFlip8B) == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B);
static_assert(int(spec::TmSwizzle::B128Atom64B) == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B);
static_assert(int(spec::TmL2Promotion::L2_64B) == CU_TENSOR_MAP_L2_PROMOTION_L2_64B);
static_assert(int(spec::TmL2Promotion::L2_128B) == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
static_assert(int(spec::TmL2Promotion::L2_256B) == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
static_assert(int(spec::TmOobFill::NanRequestZeroFma) == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
static_assert(sizeof(CUtensorMap) == 128);

std::string result_name(CUresult r) {
  const char* n = nullptr;
  const char* s = nullptr;
  if (cuGetErrorName(r, &n) != CUDA_SUCCESS) n = nullptr;
  if (cuGetErrorString(r, &s) != CUDA_SUCCESS) s = nullptr;
  return fmt::format("{} ({})", n ? n : fmt::format("CUresult {}", static_cast<int>(r)),
                     s ? s : "no description");
}

void check(CUresult r, const std::string& what) {
  if (r != CUDA_SUCCESS) throw CudaError(fmt::format("{}: {}", what, result_name(r)));
}

CUresult encode_tiled(const spec::TensorMapSpec& t, uint64_t address, CUtensorMap& out) {
  cuuint64_t dims[5] = {}, strides[5] = {};
  cuuint32_t box[5] = {}, estr[5] = {};
  const uint32_t rank = t.rank();
  for (uint32_t i = 0; i < rank && i < 5; ++i) {
    dims[i] = t.global_dims[i];
    box[i] = t.box_dims[i];
    estr[i] = t.element_strides[i];
    if (i + 1 < rank) strides[i] = t.global_strides_bytes[i];
  }
  return cuTensorMapEncodeTiled(&out, static_cast<CUtensorMapDataType>(t.dtype), rank,
                                reinterpret_cast<void*>(static_cast<uintptr_t>(address)), dims,
                                strides, box, estr, static_cast<CUtensorMapInterleave>(t.interleave),
                                static_cast<CUtensorMapSwizzle>(t.swizzle),
                                static_cast<CUtensorMapL2promotion>(t.l2_promotion),
                                static_cast<CUtensorMapFloatOOBfill>(t.oob_fill));
}

namespace {

// Redirects file descriptor 1 to a temporary file until finish() (the captured bytes) or, when a
// launch fails, the destructor, which restores stdout and passes the captured text on to it: what
// the kernel printed before the error is not lost.
class StdoutCapture {
 public:
  StdoutCapture() {
    std::fflush(stdout);
    file_ = std::tmpfile();
    saved_ = dup(1);
    if (!file_ || saved_ < 0 || dup2(fileno(file_), 1) < 0)
      throw CudaError(fmt::format("capturing the kernel's printf output: cannot redirect stdout ({})",
                                  std::strerror(errno)));
  }
  ~StdoutCapture() {
    if (!file_) return;
    const std::string t = restore();
    std::fwrite(t.data(), 1, t.size(), stdout);
    std::fflush(stdout);
  }
  StdoutCapture(const StdoutCapture&) = delete;
  StdoutCapture& operator=(const StdoutCapture&) = delete;

  std::string finish() {
    std::string t = restore();
    return t;
  }

 private:
  std::string restore() {
    std::fflush(stdout);
    dup2(saved_, 1);
    close(saved_);
    std::string t;
    std::rewind(file_);
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) t.append(buf, n);
    std::fclose(file_);
    file_ = nullptr;
    return t;
  }
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

}  // namespace

CudaBackend::CudaBackend(int ordinal) {
  check(cuInit(0), "cuInit");
  int n = 0;
  check(cuDeviceGetCount(&n), "cuDeviceGetCount");
  if (ordinal < 0 || ordinal >= n)
    throw CudaError(fmt::format("--device {}: this machine has {} CUDA device{}", ordinal, n, n == 1 ? "" : "s"));
  check(cuDeviceGet(&dev_, ordinal), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx_), "cuCtxSetCurrent");
}

CudaBackend::~CudaBackend() {
  // Best effort: after a kernel fault the context is unusable and these return errors.
  for (CUdeviceptr p : allocations_) cuMemFree(p);
  if (mod_) cuModuleUnload(mod_);
  if (ctx_) cuDevicePrimaryCtxRelease(dev_);
}

void CudaBackend::load_module(const std::string& ptx, const std::string& source_name) {
  std::vector<char> error_log(1 << 16, '\0'), info_log(1 << 16, '\0');
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {error_log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(error_log.size())),
                  info_log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(info_log.size()))};
  ptx_ = ptx;
  const CUresult r = cuModuleLoadDataEx(&mod_, ptx.c_str(), 4, opts, vals);
  if (r != CUDA_SUCCESS) {
    mod_ = nullptr;
    throw CudaError(fmt::format("loading {} (cuModuleLoadDataEx, PTX JIT): {}\nJIT error log:\n{}",
                                source_name, result_name(r), error_log.data()));
  }
}

std::vector<std::string> CudaBackend::kernel_names() {
  unsigned count = 0;
  check(cuModuleGetFunctionCount(&count, mod_), "cuModuleGetFunctionCount");
  std::vector<CUfunction> fs(count);
  if (count) check(cuModuleEnumerateFunctions(fs.data(), count, mod_), "cuModuleEnumerateFunctions");
  std::vector<std::string> names;
  for (CUfunction f : fs) {
    const char* n = nullptr;
    check(cuFuncGetName(&n, f), "cuFuncGetName");
    names.emplace_back(n ? n : "");
  }
  return names;
}

CUfunction CudaBackend::function(const std::string& kernel) {
  CUfunction f = nullptr;
  check(cuModuleGetFunction(&f, mod_, kernel.c_str()), fmt::format("cuModuleGetFunction({})", kernel));
  return f;
}

std::vector<spec::ParamInfo> CudaBackend::kernel_params(const std::string& kernel) {
  const CUfunction f = function(kernel);
  std::vector<spec::ParamInfo> r;
  std::vector<size_t> offsets;
  for (size_t i = 0;; ++i) {
    size_t off = 0, size = 0;
    const CUresult res = cuFuncGetParamInfo(f, i, &off, &size);
    if (res == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
    check(res, fmt::format("cuFuncGetParamInfo({}, {})", kernel, i));
    r.push_back({fmt::format("param {} (offset {})", i, off), static_cast<uint32_t>(size), 1});
    offsets.push_back(off);
  }
  // The driver gives offsets and sizes; names and declared alignments come from the PTX itself
  // (the simulator reads the same declaration), checked against the sizes the driver reports.
  // Offsets are the driver's own: on the H200 it places a `.param .align 64` first parameter at
  // offset 48 (docs/launch_spec.md "Parameter offsets"), so they are recorded, not compared.
  param_offsets_ = offsets;
  const auto declared = spec::ptx_entry_params(ptx_, kernel);
  if (!declared) return r;  // an unusual declaration: sizes only, alignment unchecked
  if (declared->size() != r.size())
    throw CudaError(fmt::format("kernel {}: the PTX declares {} parameters, the driver reports {}", kernel,
                                declared->size(), r.size()));
  for (size_t i = 0; i < r.size(); ++i)
    if ((*declared)[i].size != r[i].size)
      throw CudaError(fmt::format("kernel {} parameter {} '{}': the PTX declares {} bytes, the driver reports {}",
                                  kernel, i, (*declared)[i].name, (*declared)[i].size, r[i].size));
  return *declared;
}

bool CudaBackend::symbol(const std::string& name, spec::SymbolRef& out) {
  CUdeviceptr p = 0;
  size_t bytes = 0;
  const CUresult r = cuModuleGetGlobal(&p, &bytes, mod_, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) return false;
  check(r, fmt::format("cuModuleGetGlobal({})", name));
  out = {static_cast<uint64_t>(p), bytes};
  return true;
}

uint64_t CudaBackend::malloc(uint64_t bytes) {
  CUdeviceptr p = 0;
  check(cuMemAlloc(&p, bytes), fmt::format("cuMemAlloc({} bytes)", bytes));
  allocations_.push_back(p);
  if (p % 256 != 0) throw CudaError(fmt::format("cuMemAlloc returned 0x{:x}, not 256-byte aligned", p));
  return p;
}

void CudaBackend::copy_to_device(uint64_t dst, const void* src, uint64_t bytes) {
  check(cuMemcpyHtoD(dst, src, bytes), fmt::format("cuMemcpyHtoD({} bytes to 0x{:x})", bytes, dst));
}

void CudaBackend::copy_from_device(void* dst, uint64_t src, uint64_t bytes) {
  check(cuMemcpyDtoH(dst, src, bytes), fmt::format("cuMemcpyDtoH({} bytes from 0x{:x})", bytes, src));
}

std::vector<std::byte> CudaBackend::encode_tensor_map(const spec::TensorMapSpec& t, uint64_t address) {
  CUtensorMap m;
  const CUresult r = encode_tiled(t, address, m);
  if (r != CUDA_SUCCESS)
    throw spec::SpecError(fmt::format("tensor_maps.{}: cuTensorMapEncodeTiled rejected it: {}", t.name,
                                      result_name(r)));
  std::vector<std::byte> b(sizeof m);
  std::memcpy(b.data(), &m, sizeof m);
  return b;
}

spec::LaunchOutcome CudaBackend::launch(const std::string& kernel, const spec::LaunchSpec& s,
                                        std::span<const std::byte> params,
                                        std::span<const spec::ParamInfo> info) {
  const CUfunction f = function(kernel);
  // Opt-ins (CUDA Programming Guide): dynamic shared memory above 48 KB, clusters above 8 CTAs.
  if (s.dynamic_smem_bytes > 48 * 1024)
    check(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(s.dynamic_smem_bytes)),
          fmt::format("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, {})", s.dynamic_smem_bytes));
  if (s.cluster.count() > 8)
    check(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
          "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)");

  // One pointer per parameter into an aligned copy of the parameter buffer.
  std::vector<uint64_t> storage((params.size() + 7) / 8 + 1);
  if (!params.empty()) std::memcpy(storage.data(), params.data(), params.size());  // empty: data() may be null
  const spec::ParamLayout layout = spec::layout_params(info, kernel);
  std::vector<void*> kp;
  for (uint32_t off : layout.offsets) kp.push_back(reinterpret_cast<std::byte*>(storage.data()) + off);

  CUlaunchAttribute attr{};
  CUlaunchConfig cfg{};
  cfg.gridDimX = s.grid.x;
  cfg.gridDimY = s.grid.y;
  cfg.gridDimZ = s.grid.z;
  cfg.blockDimX = s.block.x;
  cfg.blockDimY = s.block.y;
  cfg.blockDimZ = s.block.z;
  cfg.sharedMemBytes = s.dynamic_smem_bytes;
  cfg.hStream = nullptr;
  // A spec that names "cluster" (or a cluster of more than one CTA) is a cluster launch.
  if (s.cluster_given || s.cluster.count() > 1) {
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = s.cluster.x;
    attr.value.clusterDim.y = s.cluster.y;
    attr.value.clusterDim.z = s.cluster.z;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
  }
  if (s.printf_fifo_bytes)
    check(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, static_cast<size_t>(*s.printf_fifo_bytes)),
          fmt::format("cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, {})", *s.printf_fifo_bytes));
  size_t fifo = 0;
  check(cuCtxGetLimit(&fifo, CU_LIMIT_PRINTF_FIFO_SIZE), "cuCtxGetLimit(CU_LIMIT_PRINTF_FIFO_SIZE)");
  printf_fifo_bytes_ = fifo;
  // The driver writes the kernel's printf output to this process's stdout when the context
  // synchronises: stdout goes to a temporary file for the launch, and the text becomes the
  // outcome's printf_output (docs/printf.md "tcsim-hw").
  StdoutCapture capture;
  CUevent start = nullptr, stop = nullptr;
  check(cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  check(cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  check(cuEventRecord(start, nullptr), "cuEventRecord");
  check(cuLaunchKernelEx(&cfg, f, kp.empty() ? nullptr : kp.data(), nullptr),
        fmt::format("cuLaunchKernelEx({}, grid [{}, {}, {}], block [{}, {}, {}], cluster [{}, {}, {}], "
                    "{} bytes dynamic shared memory)", kernel, s.grid.x, s.grid.y, s.grid.z, s.block.x,
                    s.block.y, s.block.z, s.cluster.x, s.cluster.y, s.cluster.z, s.dynamic_smem_bytes));
  check(cuEventRecord(stop, nullptr), "cuEventRecord");
  check(cuCtxSynchronize(), fmt::format("kernel {} failed while running (cuCtxSynchronize)", kernel));
  float ms = 0;
  check(cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
  elapsed_ms_ = ms;
  cuEventDestroy(start);
  cuEventDestroy(stop);
  spec::LaunchOutcome o;
  o.printf_output = spec::PrintfCapture{capture.finish(), std::nullopt, std::nullopt, fifo};
  return o;
}

std::string CudaBackend::gpu_name() const {
  char name[256] = {};
  check(cuDeviceGetName(name, sizeof name - 1, dev_), "cuDeviceGetName");
  return name;
}

std::string CudaBackend::compute_capability() const {
  int major = 0, minor = 0;
  check(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev_), "cuDeviceGetAttribute");
  check(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev_), "cuDeviceGetAttribute");
  return fmt::format("{}.{}", major, minor);
}

std::string CudaBackend::driver_version() const {
  int v = 0;
  check(cuDriverGetVersion(&v), "cuDriverGetVersion");
  return fmt::format("{}.{}", v / 1000, v % 1000 / 10);
}

}  // namespace tcsim::hw
