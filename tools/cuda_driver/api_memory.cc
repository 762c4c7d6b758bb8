// Memory (CUDA Driver API "Memory Management", "Stream Ordered Memory Allocator", "Unified
// Addressing"): device allocations in the simulator's global memory (sim::Device::malloc), pinned
// host memory as ordinary host memory the driver knows about, synchronous and stream-ordered copies
// and memsets.
//
// Device pointers are simulated addresses (sim/address_space.h: from 0x7f00_0000_0000); the host
// cannot dereference them, and kernels cannot reach host memory (no zero-copy or managed memory:
// device_props.cc reports both absent).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "tools/cuda_driver/driver.h"

using namespace tcsim::cudrv;

namespace {

// Which side an address of a unified copy (cuMemcpy, CU_MEMORYTYPE_UNIFIED) is on: device when it
// lies in a simulated allocation. (Host memory can have numerically the same addresses as the
// simulated device window, so the explicit HtoD/DtoH/DtoD calls never guess.)
enum class Side : uint8_t { Host, Device, Unified };
bool on_device(Driver& drv, uint64_t a) { return a && drv.device().contains(a, 1); }

CUresult check_device_range(Driver& drv, uint64_t a, uint64_t n, const char* call, const char* what) {
  if (n == 0) return CUDA_SUCCESS;
  if (!drv.device().contains(a, n))
    return drv.fail(CUDA_ERROR_INVALID_VALUE,
                    fmt::format("{}: the {} range [0x{:x}, +{}) is not inside one device allocation", call, what, a, n));
  return CUDA_SUCCESS;
}

// Moves bytes between host and simulated device memory (either side either kind).
void move_bytes(Driver& drv, uint64_t dst, bool dst_dev, uint64_t src, bool src_dev, uint64_t n) {
  if (n == 0) return;
  auto& d = drv.device();
  if (dst_dev && src_dev) {
    d.copy_on_device(dst, src, n);  // initcheck: the copy carries which source bytes were written
  } else if (dst_dev) {
    d.copy_to_device(dst, reinterpret_cast<const void*>(src), n);
  } else if (src_dev) {
    d.copy_from_device(reinterpret_cast<void*>(dst), src, n);
  } else {
    std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n);
  }
  drv.advance_ms(drv.copy_ms(n, dst_dev && src_dev));
}

// A copy in stream order. Host memory the driver knows as pinned is read or written when the copy
// runs; pageable host memory is read now (the driver stages pageable sources before returning) and
// written synchronously (a copy to pageable memory returns once complete: CUDA Driver API, "API
// synchronization behavior").
CUresult copy(Driver& drv, const char* call, uint64_t dst, Side dst_side, uint64_t src, Side src_side, uint64_t n, CUstream hs,
             bool async) {
  Stream* s = nullptr;
  if (!drv.stream(hs, s)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, fmt::format("{}: invalid stream handle", call));
  if (drv.sticky()) return drv.sticky();
  if (n == 0) return CUDA_SUCCESS;
  const bool dd = dst_side == Side::Unified ? on_device(drv, dst) : dst_side == Side::Device;
  const bool sd = src_side == Side::Unified ? on_device(drv, src) : src_side == Side::Device;
  if (dd) {
    if (CUresult r = check_device_range(drv, dst, n, call, "destination")) return r;
  } else if (!dst) {
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: destination is NULL", call));
  }
  if (sd) {
    if (CUresult r = check_device_range(drv, src, n, call, "source")) return r;
  } else if (!src) {
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: source is NULL", call));
  }
  const bool dst_pinned = !dd && drv.find_host(dst);
  const bool src_pinned = !sd && drv.find_host(src);
  if (!async || (!dd && !dst_pinned)) {
    // Synchronous: everything queued before it runs first.
    if (CUresult r = drv.flush()) return r;
    move_bytes(drv, dst, dd, src, sd, n);
    return CUDA_SUCCESS;
  }
  if (!sd && !src_pinned) {
    auto staged = std::make_shared<std::vector<uint8_t>>(n);
    std::memcpy(staged->data(), reinterpret_cast<const void*>(src), n);
    drv.enqueue(s, call, [&drv, dst, dd, staged, n] {
      move_bytes(drv, dst, dd, reinterpret_cast<uint64_t>(staged->data()), false, n);
      return CUDA_SUCCESS;
    });
    return CUDA_SUCCESS;
  }
  drv.enqueue(s, call, [&drv, dst, dd, src, sd, n] {
    move_bytes(drv, dst, dd, src, sd, n);
    return CUDA_SUCCESS;
  });
  return CUDA_SUCCESS;
}

struct Copy2D {
  uint64_t src, dst;  // addresses of the first byte (X and Y offsets applied)
  bool src_dev, dst_dev;
  uint64_t src_pitch, dst_pitch, src_height, dst_height;  // heights: 3D slices
  uint64_t width, height, depth;
};

CUresult resolve_side(Driver& drv, const char* call, const char* side, CUmemorytype t, const void* host, CUdeviceptr dev,
                      CUarray array, uint64_t& addr, bool& is_dev) {
  switch (t) {
    case CU_MEMORYTYPE_HOST: addr = reinterpret_cast<uint64_t>(host); is_dev = false; break;
    case CU_MEMORYTYPE_DEVICE: addr = dev; is_dev = true; break;
    case CU_MEMORYTYPE_UNIFIED: addr = dev; is_dev = on_device(drv, dev); break;
    case CU_MEMORYTYPE_ARRAY:
      (void)array;
      return drv.not_supported(call, fmt::format("{} is a CUDA array (tcsim implements no arrays or textures)", side));
    default: return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: {} memory type {} is invalid", call, side, static_cast<int>(t)));
  }
  if (!addr) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: {} pointer is NULL", call, side));
  return CUDA_SUCCESS;
}

CUresult copy_2d(Driver& drv, const char* call, const Copy2D& c, CUstream hs, bool async) {
  Stream* s = nullptr;
  if (!drv.stream(hs, s)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, fmt::format("{}: invalid stream handle", call));
  if (drv.sticky()) return drv.sticky();
  if (!c.width || !c.height || !c.depth) return CUDA_SUCCESS;
  if (c.width > c.src_pitch || c.width > c.dst_pitch)
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: WidthInBytes {} exceeds a pitch ({} / {})", call, c.width, c.src_pitch, c.dst_pitch));
  // The byte extent touched on each side.
  const uint64_t src_extent = ((c.depth - 1) * c.src_height + (c.height - 1)) * c.src_pitch + c.width;
  const uint64_t dst_extent = ((c.depth - 1) * c.dst_height + (c.height - 1)) * c.dst_pitch + c.width;
  if (c.src_dev)
    if (CUresult r = check_device_range(drv, c.src, src_extent, call, "source")) return r;
  if (c.dst_dev)
    if (CUresult r = check_device_range(drv, c.dst, dst_extent, call, "destination")) return r;
  auto run = [&drv, c] {
    for (uint64_t z = 0; z < c.depth; ++z)
      for (uint64_t y = 0; y < c.height; ++y)
        move_bytes(drv, c.dst + (z * c.dst_height + y) * c.dst_pitch, c.dst_dev,
                   c.src + (z * c.src_height + y) * c.src_pitch, c.src_dev, c.width);
    return CUDA_SUCCESS;
  };
  const bool host_involved = !c.src_dev || !c.dst_dev;
  if (!async || host_involved) {  // host sides are read and written in the call: no staging copy
    if (CUresult r = drv.flush()) return r;
    return run();
  }
  drv.enqueue(s, call, run);
  return CUDA_SUCCESS;
}

CUresult memcpy2d(Driver& drv, const char* call, const CUDA_MEMCPY2D* p, CUstream hs, bool async) {
  if (!p) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: parameters are NULL", call));
  Copy2D c{};
  if (CUresult r = resolve_side(drv, call, "source", p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, c.src, c.src_dev)) return r;
  if (CUresult r = resolve_side(drv, call, "destination", p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, c.dst, c.dst_dev)) return r;
  c.src_pitch = p->srcPitch ? p->srcPitch : p->WidthInBytes;
  c.dst_pitch = p->dstPitch ? p->dstPitch : p->WidthInBytes;
  c.src += p->srcY * c.src_pitch + p->srcXInBytes;
  c.dst += p->dstY * c.dst_pitch + p->dstXInBytes;
  c.width = p->WidthInBytes;
  c.height = p->Height;
  c.depth = 1;
  c.src_height = c.dst_height = p->Height;
  return copy_2d(drv, call, c, hs, async);
}

CUresult memcpy3d(Driver& drv, const char* call, const CUDA_MEMCPY3D* p, CUstream hs, bool async) {
  if (!p) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: parameters are NULL", call));
  Copy2D c{};
  if (CUresult r = resolve_side(drv, call, "source", p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, c.src, c.src_dev)) return r;
  if (CUresult r = resolve_side(drv, call, "destination", p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, c.dst, c.dst_dev)) return r;
  c.src_pitch = p->srcPitch ? p->srcPitch : p->WidthInBytes;
  c.dst_pitch = p->dstPitch ? p->dstPitch : p->WidthInBytes;
  c.src_height = p->srcHeight ? p->srcHeight : p->Height;
  c.dst_height = p->dstHeight ? p->dstHeight : p->Height;
  c.src += (p->srcZ * c.src_height + p->srcY) * c.src_pitch + p->srcXInBytes;
  c.dst += (p->dstZ * c.dst_height + p->dstY) * c.dst_pitch + p->dstXInBytes;
  c.width = p->WidthInBytes;
  c.height = p->Height;
  c.depth = p->Depth;
  return copy_2d(drv, call, c, hs, async);
}

// Memsets: `elem` bytes of `value` (little-endian), `width` elements per row, `height` rows
// `pitch` bytes apart.
CUresult memset(Driver& drv, const char* call, CUdeviceptr dst, uint64_t pitch, uint32_t value, unsigned elem,
                uint64_t width, uint64_t height, CUstream hs, bool async) {
  Stream* s = nullptr;
  if (!drv.stream(hs, s)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, fmt::format("{}: invalid stream handle", call));
  if (drv.sticky()) return drv.sticky();
  if (!width || !height) return CUDA_SUCCESS;
  if (dst % elem)
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: address 0x{:x} is not {}-byte aligned", call, dst, elem));
  const uint64_t row = width * elem;
  if (height > 1 && pitch < row)
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: pitch {} is less than the row ({} bytes)", call, pitch, row));
  if (CUresult r = check_device_range(drv, dst, (height - 1) * pitch + row, call, "destination")) return r;
  auto run = [&drv, dst, pitch, value, elem, row, height] {
    std::vector<uint8_t> pat(row);
    for (uint64_t i = 0; i < row; ++i) pat[i] = static_cast<uint8_t>(value >> (8 * (i % elem)));
    for (uint64_t y = 0; y < height; ++y) drv.device().copy_to_device(dst + y * pitch, pat.data(), row);
    drv.advance_ms(drv.copy_ms(row * height, true) / 2);  // writes only
    return CUDA_SUCCESS;
  };
  if (!async) {
    if (CUresult r = drv.flush()) return r;
    return run();
  }
  drv.enqueue(s, call, run);
  return CUDA_SUCCESS;
}

uint64_t used_bytes(const Driver& drv) {
  uint64_t u = 0;
  for (const auto& [b, a] : drv.device_allocs) u += a.size;
  return u;
}

CUresult alloc(Driver& drv, const char* call, CUdeviceptr* p, size_t bytes) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  if (bytes == 0) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: size 0", call));
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  if (bytes > drv.props().total_mem - std::min<uint64_t>(used_bytes(drv), drv.props().total_mem))
    return drv.fail(CUDA_ERROR_OUT_OF_MEMORY, fmt::format("{}: {} bytes requested, {} of the device's {} in use", call,
                                                          bytes, used_bytes(drv), drv.props().total_mem));
  try {
    // 512-byte alignment: what cudaMalloc guarantees in practice and CUTLASS/TMA code assumes
    // (TMA global addresses must be 16-byte aligned; 256 is the documented minimum).
    const uint64_t a = drv.device().malloc(bytes, 512);
    drv.device_allocs[a] = {bytes, c, drv.next_id()};
    *p = a;
  } catch (const std::exception& e) {
    return drv.fail(CUDA_ERROR_OUT_OF_MEMORY, fmt::format("{}: {}", call, e.what()));
  }
  return CUDA_SUCCESS;
}

CUresult free_device(Driver& drv, const char* call, CUdeviceptr p) {
  if (!p) return CUDA_SUCCESS;
  auto it = drv.device_allocs.find(p);
  if (it == drv.device_allocs.end())
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: 0x{:x} is not the start of a device allocation{}", call, p,
                                                          drv.find_device(p) ? " (it lies inside one)" : ""));
  drv.device().free(p);
  drv.device_allocs.erase(it);
  return CUDA_SUCCESS;
}

CUresult host_alloc(Driver& drv, void** p, size_t bytes, unsigned flags) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  void* m = std::aligned_alloc(4096, std::max<size_t>((bytes + 4095) / 4096 * 4096, 4096));
  if (!m) return drv.fail(CUDA_ERROR_OUT_OF_MEMORY, fmt::format("cuMemHostAlloc: cannot allocate {} host bytes", bytes));
  drv.host_allocs[reinterpret_cast<uint64_t>(m)] = {bytes, c, flags, false, drv.next_id()};
  *p = m;
  return CUDA_SUCCESS;
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  TCSIM_CU_ENTER();
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  const uint64_t used = std::min<uint64_t>(used_bytes(drv), drv.props().total_mem);
  if (free_bytes) *free_bytes = drv.props().total_mem - used;
  if (total_bytes) *total_bytes = drv.props().total_mem;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuMemAlloc(CUdeviceptr* p, size_t bytes) {
  TCSIM_CU_ENTER();
  return alloc(drv, "cuMemAlloc", p, bytes);
}

TCSIM_CU_API CUresult CUDAAPI cuMemAllocPitch(CUdeviceptr* p, size_t* pitch, size_t width, size_t height, unsigned int elem) {
  TCSIM_CU_ENTER();
  if (!pitch || (elem != 4 && elem != 8 && elem != 16))
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuMemAllocPitch: ElementSizeBytes {} (legal: 4, 8, 16)", elem));
  // Rows padded to 512 bytes, the texture-pitch-friendly alignment GPUs use.
  const size_t pt = (width + 511) / 512 * 512;
  *pitch = pt;
  return alloc(drv, "cuMemAllocPitch", p, pt * std::max<size_t>(height, 1));
}

TCSIM_CU_API CUresult CUDAAPI cuMemFree(CUdeviceptr p) {
  TCSIM_CU_ENTER();
  drv.flush();  // cuMemFree synchronises: queued work may still use the memory
  return free_device(drv, "cuMemFree", p);
}

TCSIM_CU_API CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr* p, size_t bytes, CUstream hs) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!drv.stream(hs, s)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuMemAllocAsync: invalid stream handle");
  // Allocated at once: usable by everything that follows in stream order (and before it, which
  // the program cannot observe).
  return alloc(drv, "cuMemAllocAsync", p, bytes);
}

TCSIM_CU_API CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr p, CUstream hs) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!drv.stream(hs, s)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuMemFreeAsync: invalid stream handle");
  if (!drv.device_allocs.count(p))
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuMemFreeAsync: 0x{:x} is not the start of a device allocation", p));
  drv.enqueue(s, "cuMemFreeAsync", [&drv, p] { return free_device(drv, "cuMemFreeAsync", p); });
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr* base, size_t* size, CUdeviceptr p) {
  TCSIM_CU_ENTER();
  const auto* a = drv.find_device(p);
  if (!a) return drv.fail(CUDA_ERROR_NOT_FOUND, fmt::format("cuMemGetAddressRange: 0x{:x} is in no device allocation", p));
  if (base) *base = a->first;
  if (size) *size = a->second.size;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuMemAllocHost(void** p, size_t bytes) {
  TCSIM_CU_ENTER();
  return host_alloc(drv, p, bytes, 0);
}

TCSIM_CU_API CUresult CUDAAPI cuMemHostAlloc(void** p, size_t bytes, unsigned int flags) {
  TCSIM_CU_ENTER();
  return host_alloc(drv, p, bytes, flags);
}

TCSIM_CU_API CUresult CUDAAPI cuMemFreeHost(void* p) {
  TCSIM_CU_ENTER();
  drv.flush();
  auto it = drv.host_allocs.find(reinterpret_cast<uint64_t>(p));
  if (it == drv.host_allocs.end() || it->second.registered)
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuMemFreeHost: {} was not allocated by cuMemHostAlloc/cuMemAllocHost", p));
  drv.host_allocs.erase(it);
  std::free(p);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuMemHostGetFlags(unsigned int* flags, void* p) {
  TCSIM_CU_ENTER();
  const auto* h = drv.find_host(reinterpret_cast<uint64_t>(p));
  if (!flags || !h) return drv.fail(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetFlags: not pinned host memory");
  *flags = h->second.flags;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr*, void*, unsigned int) {
  TCSIM_CU_ENTER();
  return drv.not_supported("cuMemHostGetDevicePointer", "simulated kernels cannot reach host memory (no zero-copy)");
}

TCSIM_CU_API CUresult CUDAAPI cuMemHostRegister(void* p, size_t bytes, unsigned int flags) {
  TCSIM_CU_ENTER();
  if (!p || !bytes) return drv.fail(CUDA_ERROR_INVALID_VALUE, "cuMemHostRegister: NULL pointer or size 0");
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  const uint64_t a = reinterpret_cast<uint64_t>(p);
  if (drv.find_host(a) || drv.find_host(a + bytes - 1))
    return drv.fail(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "cuMemHostRegister: the range is already registered");
  drv.host_allocs[a] = {bytes, c, flags, true, drv.next_id()};
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuMemHostUnregister(void* p) {
  TCSIM_CU_ENTER();
  drv.flush();
  auto it = drv.host_allocs.find(reinterpret_cast<uint64_t>(p));
  if (it == drv.host_allocs.end() || !it->second.registered)
    return drv.fail(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "cuMemHostUnregister: not a registered range");
  drv.host_allocs.erase(it);
  return CUDA_SUCCESS;
}

namespace {

// One attribute of a pointer (CUDA Driver API, cuPointerGetAttribute). `data` receives the type
// the documentation gives for the attribute.
CUresult pointer_attribute(Driver& drv, void* data, CUpointer_attribute attr, CUdeviceptr p, bool quiet) {
  const auto* d = drv.find_device(p);
  const auto* h = d ? nullptr : drv.find_host(p);
  auto put = [&](auto v) {
    std::memcpy(data, &v, sizeof v);
    return CUDA_SUCCESS;
  };
  auto invalid = [&] {
    return quiet ? CUDA_ERROR_INVALID_VALUE
                 : drv.fail(CUDA_ERROR_INVALID_VALUE,
                            fmt::format("cuPointerGetAttribute: 0x{:x} is neither device memory nor registered host memory", p));
  };
  switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
      if (!d && !h) return invalid();
      return put(reinterpret_cast<CUcontext>(d ? d->second.ctx : h->second.ctx));
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      if (!d && !h) return quiet ? put(static_cast<unsigned>(0)) : invalid();
      return put(static_cast<unsigned>(d ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST));
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      if (!d && !h) return invalid();
      return put(static_cast<CUdeviceptr>(p));  // unified addressing: the same address
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      if (!h) return invalid();
      return put(reinterpret_cast<void*>(p));
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: return put(1);
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
      if (!d && !h) return invalid();
      return put(static_cast<unsigned long long>(d ? d->second.id : h->second.id));
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: return put(0);
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      if (!d && !h) return invalid();
      return put(0);
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE: return put(0);
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      if (!d && !h) return invalid();
      return put(static_cast<CUdeviceptr>(d ? d->first : h->first));
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
      if (!d && !h) return invalid();
      return put(static_cast<size_t>(d ? d->second.size : h->second.size));
    case CU_POINTER_ATTRIBUTE_MAPPED: return put(d || h ? 1 : 0);
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: return put(0ull);
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE: return put(0);
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
      if (!d && !h) return invalid();
      return put(static_cast<int>(d ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE : CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE));
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: return put(static_cast<void*>(nullptr));
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
      if (!d && !h) return invalid();
      return put(static_cast<size_t>(d ? d->second.size : h->second.size));
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
      if (!d && !h) return invalid();
      return put(reinterpret_cast<void*>(d ? d->first : h->first));
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
      if (!d && !h) return invalid();
      return put(static_cast<unsigned long long>(d ? d->second.id : h->second.id));
    case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE: return put(0);
    default:
      return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuPointerGetAttribute: unknown attribute {}", static_cast<int>(attr)));
  }
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuPointerGetAttribute(void* data, CUpointer_attribute attr, CUdeviceptr p) {
  TCSIM_CU_ENTER();
  if (!data) return CUDA_ERROR_INVALID_VALUE;
  return pointer_attribute(drv, data, attr, p, false);
}

// cuPointerGetAttributes: unlike the single query, an unknown pointer is not an error (its
// attributes read as zero / memory type 0), as the CUDA documentation says since CUDA 11.
TCSIM_CU_API CUresult CUDAAPI cuPointerGetAttributes(unsigned int n, CUpointer_attribute* attrs, void** data, CUdeviceptr p) {
  TCSIM_CU_ENTER();
  if (!attrs || !data) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < n; ++i) {
    if (!data[i]) continue;
    if (pointer_attribute(drv, data[i], attrs[i], p, true) != CUDA_SUCCESS) {
      // Zero of the attribute's size: the widest attribute is 8 bytes.
      const bool wide = attrs[i] == CU_POINTER_ATTRIBUTE_CONTEXT || attrs[i] == CU_POINTER_ATTRIBUTE_DEVICE_POINTER ||
                        attrs[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER || attrs[i] == CU_POINTER_ATTRIBUTE_BUFFER_ID ||
                        attrs[i] == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR || attrs[i] == CU_POINTER_ATTRIBUTE_RANGE_SIZE ||
                        attrs[i] == CU_POINTER_ATTRIBUTE_MAPPING_SIZE || attrs[i] == CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR ||
                        attrs[i] == CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID || attrs[i] == CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE ||
                        attrs[i] == CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES;
      std::memset(data[i], 0, wide ? 8 : 4);
    }
  }
  return CUDA_SUCCESS;
}

// --- copies -----------------------------------------------------------------------------------

TCSIM_CU_API CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpy", dst, Side::Unified, src, Side::Unified, n, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpyAsync", dst, Side::Unified, src, Side::Unified, n, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dst, CUcontext, CUdeviceptr src, CUcontext, size_t n) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpyPeer", dst, Side::Device, src, Side::Device, n, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext, CUdeviceptr src, CUcontext, size_t n, CUstream s) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpyPeerAsync", dst, Side::Device, src, Side::Device, n, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dst, const void* src, size_t n) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpyHtoD", dst, Side::Device, reinterpret_cast<uint64_t>(src), Side::Host, n, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dst, const void* src, size_t n, CUstream s) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpyHtoDAsync", dst, Side::Device, reinterpret_cast<uint64_t>(src), Side::Host, n, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpyDtoH(void* dst, CUdeviceptr src, size_t n) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpyDtoH", reinterpret_cast<uint64_t>(dst), Side::Host, src, Side::Device, n, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpyDtoHAsync(void* dst, CUdeviceptr src, size_t n, CUstream s) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpyDtoHAsync", reinterpret_cast<uint64_t>(dst), Side::Host, src, Side::Device, n, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpyDtoD", dst, Side::Device, src, Side::Device, n, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  TCSIM_CU_ENTER();
  return copy(drv, "cuMemcpyDtoDAsync", dst, Side::Device, src, Side::Device, n, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpy2D(const CUDA_MEMCPY2D* p) {
  TCSIM_CU_ENTER();
  return memcpy2d(drv, "cuMemcpy2D", p, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpy2DUnaligned(const CUDA_MEMCPY2D* p) {
  TCSIM_CU_ENTER();
  return memcpy2d(drv, "cuMemcpy2DUnaligned", p, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpy2DAsync(const CUDA_MEMCPY2D* p, CUstream s) {
  TCSIM_CU_ENTER();
  return memcpy2d(drv, "cuMemcpy2DAsync", p, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpy3D(const CUDA_MEMCPY3D* p) {
  TCSIM_CU_ENTER();
  return memcpy3d(drv, "cuMemcpy3D", p, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemcpy3DAsync(const CUDA_MEMCPY3D* p, CUstream s) {
  TCSIM_CU_ENTER();
  return memcpy3d(drv, "cuMemcpy3DAsync", p, s, true);
}

// --- memsets ----------------------------------------------------------------------------------

TCSIM_CU_API CUresult CUDAAPI cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD8", d, n, v, 1, n, 1, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD16(CUdeviceptr d, unsigned short v, size_t n) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD16", d, 2 * n, v, 2, n, 1, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD32(CUdeviceptr d, unsigned int v, size_t n) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD32", d, 4 * n, v, 4, n, 1, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD8Async", d, n, v, 1, n, 1, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD16Async", d, 2 * n, v, 2, n, 1, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream s) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD32Async", d, 4 * n, v, 4, n, 1, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD2D8(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD2D8", d, pitch, v, 1, w, h, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD2D16(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD2D16", d, pitch, v, 2, w, h, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD2D32(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD2D32", d, pitch, v, 4, w, h, nullptr, false);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD2D8Async", d, pitch, v, 1, w, h, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h, CUstream s) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD2D16Async", d, pitch, v, 2, w, h, s, true);
}
TCSIM_CU_API CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h, CUstream s) {
  TCSIM_CU_ENTER();
  return memset(drv, "cuMemsetD2D32Async", d, pitch, v, 4, w, h, s, true);
}
