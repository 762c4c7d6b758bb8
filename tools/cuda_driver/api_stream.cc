// Streams and events (CUDA Driver API "Stream Management", "Event Management"). All streams feed
// the one issue-ordered queue (driver.h), so waiting on an event recorded earlier in issue order is
// always satisfied; a query is a synchronisation point (it runs the queue and reports the work
// done), so a program that polls makes progress. Event times are simulated device time.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "tools/cuda_driver/driver.h"

using namespace tcsim::cudrv;

namespace {

CUresult get_stream(Driver& drv, CUstream h, Stream*& s, const char* call) {
  if (!drv.stream(h, s)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, fmt::format("{}: invalid stream handle", call));
  return CUDA_SUCCESS;
}

CUresult get_event(Driver& drv, CUevent h, Event*& e, const char* call) {
  if (!drv.valid(drv.events, h)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, fmt::format("{}: invalid event handle", call));
  e = reinterpret_cast<Event*>(h);
  return CUDA_SUCCESS;
}

CUresult create_stream(Driver& drv, CUstream* out, unsigned flags, int priority) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  auto s = std::make_unique<Stream>();
  s->ctx = c;
  s->flags = flags;
  s->priority = std::clamp(priority, -5, 0);
  s->id = drv.next_id();
  *out = reinterpret_cast<CUstream>(s.get());
  drv.streams[s.get()] = std::move(s);
  return CUDA_SUCCESS;
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuStreamCreate(CUstream* s, unsigned int flags) {
  TCSIM_CU_ENTER();
  return create_stream(drv, s, flags, 0);
}

TCSIM_CU_API CUresult CUDAAPI cuStreamCreateWithPriority(CUstream* s, unsigned int flags, int priority) {
  TCSIM_CU_ENTER();
  return create_stream(drv, s, flags, priority);
}

TCSIM_CU_API CUresult CUDAAPI cuStreamDestroy(CUstream h) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (CUresult r = get_stream(drv, h, s, "cuStreamDestroy")) return r;
  if (!s) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuStreamDestroy: the default stream cannot be destroyed");
  drv.flush();  // its queued work still completes (CUDA Driver API, cuStreamDestroy)
  drv.streams.erase(s);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuStreamSynchronize(CUstream h) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (CUresult r = get_stream(drv, h, s, "cuStreamSynchronize")) return r;
  return drv.flush();
}

TCSIM_CU_API CUresult CUDAAPI cuStreamQuery(CUstream h) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (CUresult r = get_stream(drv, h, s, "cuStreamQuery")) return r;
  return drv.flush();
}

TCSIM_CU_API CUresult CUDAAPI cuStreamWaitEvent(CUstream h, CUevent he, unsigned int) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  Event* e = nullptr;
  if (CUresult r = get_stream(drv, h, s, "cuStreamWaitEvent")) return r;
  if (CUresult r = get_event(drv, he, e, "cuStreamWaitEvent")) return r;
  return CUDA_SUCCESS;  // the record precedes this wait in issue order: satisfied by construction
}

TCSIM_CU_API CUresult CUDAAPI cuStreamAddCallback(CUstream h, CUstreamCallback cb, void* user, unsigned int flags) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!cb || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamAddCallback")) return r;
  drv.enqueue(s, "stream callback", [&drv, cb, h, user] {
    cb(h, drv.sticky(), user);
    return CUDA_SUCCESS;
  });
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuStreamGetPriority(CUstream h, int* p) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamGetPriority")) return r;
  *p = s ? s->priority : 0;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuStreamGetFlags(CUstream h, unsigned int* f) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!f) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamGetFlags")) return r;
  *f = s ? s->flags : 0;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuStreamGetId(CUstream h, unsigned long long* id) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!id) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamGetId")) return r;
  *id = s ? s->id : (h == CU_STREAM_PER_THREAD ? 2 : 1);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuStreamGetCtx(CUstream h, CUcontext* c) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!c) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamGetCtx")) return r;
  if (s) {
    *c = reinterpret_cast<CUcontext>(s->ctx);
    return CUDA_SUCCESS;
  }
  Context* cur = nullptr;
  if (CUresult r = drv.need_context(cur)) return r;
  *c = reinterpret_cast<CUcontext>(cur);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuStreamGetDevice(CUstream h, CUdevice* d) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamGetDevice")) return r;
  *d = 0;
  return CUDA_SUCCESS;
}

// Stream capture (CUDA graphs) is not implemented: no stream is ever capturing.
TCSIM_CU_API CUresult CUDAAPI cuStreamIsCapturing(CUstream h, CUstreamCaptureStatus* st) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!st) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamIsCapturing")) return r;
  *st = CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream h, CUstreamCaptureStatus* st, cuuint64_t* id, CUgraph* graph,
                                                     const CUgraphNode** deps, const CUgraphEdgeData** edges, size_t* n) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!st) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamGetCaptureInfo")) return r;
  *st = CU_STREAM_CAPTURE_STATUS_NONE;
  if (id) *id = 0;
  if (graph) *graph = nullptr;
  if (deps) *deps = nullptr;
  if (edges) *edges = nullptr;
  if (n) *n = 0;
  return CUDA_SUCCESS;
}

// The CUDA 11.3 ABI (PFN_cuStreamGetCaptureInfo_v11030): no edge data.
extern "C" CUresult tcsim_cuStreamGetCaptureInfo_v11030(CUstream h, CUstreamCaptureStatus* st, cuuint64_t* id, CUgraph* graph,
                                                        const CUgraphNode** deps, size_t* n) {
  return cuStreamGetCaptureInfo(h, st, id, graph, deps, nullptr, n);
}
// The CUDA 10.1 ABI (PFN_cuStreamGetCaptureInfo_v10010).
extern "C" CUresult tcsim_cuStreamGetCaptureInfo_v10010(CUstream h, CUstreamCaptureStatus* st, cuuint64_t* id) {
  return cuStreamGetCaptureInfo(h, st, id, nullptr, nullptr, nullptr, nullptr);
}

TCSIM_CU_API CUresult CUDAAPI cuStreamGetAttribute(CUstream h, CUstreamAttrID attr, CUstreamAttrValue* v) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamGetAttribute")) return r;
  std::memset(v, 0, sizeof *v);
  if (attr == CU_LAUNCH_ATTRIBUTE_PRIORITY) v->priority = s ? s->priority : 0;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuStreamSetAttribute(CUstream h, CUstreamAttrID attr, const CUstreamAttrValue* v) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_stream(drv, h, s, "cuStreamSetAttribute")) return r;
  switch (attr) {
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
      if (s) s->priority = std::clamp(v->priority, -5, 0);
      return CUDA_SUCCESS;
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:     // L2 persistence hint: no effect on results
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:   // how the host waits: no effect here
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
      return CUDA_SUCCESS;
    default:
      return drv.not_supported(fmt::format("cuStreamSetAttribute attribute {}", static_cast<int>(attr)));
  }
}

TCSIM_CU_API CUresult CUDAAPI cuStreamCopyAttributes(CUstream dst, CUstream src) {
  TCSIM_CU_ENTER();
  Stream *d = nullptr, *s = nullptr;
  if (CUresult r = get_stream(drv, dst, d, "cuStreamCopyAttributes")) return r;
  if (CUresult r = get_stream(drv, src, s, "cuStreamCopyAttributes")) return r;
  if (d) d->priority = s ? s->priority : 0;
  return CUDA_SUCCESS;
}

// --- events -----------------------------------------------------------------------------------

TCSIM_CU_API CUresult CUDAAPI cuEventCreate(CUevent* out, unsigned int flags) {
  TCSIM_CU_ENTER();
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  auto e = std::make_unique<Event>();
  e->ctx = c;
  e->flags = flags;
  *out = reinterpret_cast<CUevent>(e.get());
  drv.events[e.get()] = std::move(e);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuEventDestroy(CUevent h) {
  TCSIM_CU_ENTER();
  Event* e = nullptr;
  if (CUresult r = get_event(drv, h, e, "cuEventDestroy")) return r;
  drv.flush();  // a queued record must not outlive its event
  drv.events.erase(e);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuEventRecordWithFlags(CUevent h, CUstream hs, unsigned int) {
  TCSIM_CU_ENTER();
  Event* e = nullptr;
  Stream* s = nullptr;
  if (CUresult r = get_event(drv, h, e, "cuEventRecord")) return r;
  if (CUresult r = get_stream(drv, hs, s, "cuEventRecord")) return r;
  drv.mark_event_pending(e);
  drv.enqueue(s, "event record", [&drv, e] {
    drv.complete_event(e);
    return CUDA_SUCCESS;
  });
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuEventRecord(CUevent h, CUstream s) { return cuEventRecordWithFlags(h, s, 0); }

TCSIM_CU_API CUresult CUDAAPI cuEventQuery(CUevent h) {
  TCSIM_CU_ENTER();
  Event* e = nullptr;
  if (CUresult r = get_event(drv, h, e, "cuEventQuery")) return r;
  if (CUresult r = drv.flush()) return r;
  return e->completed ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

TCSIM_CU_API CUresult CUDAAPI cuEventSynchronize(CUevent h) {
  TCSIM_CU_ENTER();
  Event* e = nullptr;
  if (CUresult r = get_event(drv, h, e, "cuEventSynchronize")) return r;
  return drv.flush();
}

TCSIM_CU_API CUresult CUDAAPI cuEventElapsedTime(float* ms, CUevent hs, CUevent he) {
  TCSIM_CU_ENTER();
  Event *s = nullptr, *e = nullptr;
  if (!ms) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = get_event(drv, hs, s, "cuEventElapsedTime")) return r;
  if (CUresult r = get_event(drv, he, e, "cuEventElapsedTime")) return r;
  if ((s->flags | e->flags) & CU_EVENT_DISABLE_TIMING)
    return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuEventElapsedTime: an event was created with CU_EVENT_DISABLE_TIMING");
  if (!s->recorded || !e->recorded) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuEventElapsedTime: an event was never recorded");
  if (!s->completed || !e->completed) return CUDA_ERROR_NOT_READY;
  *ms = static_cast<float>(e->time_ms - s->time_ms);
  return CUDA_SUCCESS;
}
