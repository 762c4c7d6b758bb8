#include "sim/printf_log.h"

#include "sim/launch_state.h"

#include <algorithm>
#include <tuple>

namespace tcsim::sim {
namespace {

uint64_t align8(uint64_t v) { return (v + 7) / 8 * 8; }

// The captured text is bounded too (a record's text can be far longer than its FIFO bytes: "%900d"
// of one int): past this many bytes of text a partition drops further records.
constexpr uint64_t kMaxTextBytes = uint64_t{64} << 20;

}  // namespace

uint64_t printf_record_bytes(uint64_t slots, uint64_t format_bytes, uint64_t string_bytes) {
  return 16 + 8 * slots + align8(format_bytes + 1) + align8(string_bytes);
}

uint64_t printf_fifo_capacity(const LaunchState& L) {
  constexpr uint64_t kMin = uint64_t{512} << 10, kPerSm = uint64_t{64} << 10;
  const uint64_t want = L.cfg.printf_fifo_bytes ? L.cfg.printf_fifo_bytes : kPerSm * L.machine->num_sms;
  return std::max(want, kMin);
}

bool PrintfLog::add(uint64_t capacity, PrintfRecord r) {
  if (r.bytes > capacity - std::min(capacity, bytes_) || text_ + r.text.size() > kMaxTextBytes) {
    ++dropped_;
    return false;
  }
  bytes_ += r.bytes;
  text_ += r.text.size();
  r.order = next_order_++;
  records_.push_back(std::move(r));
  return true;
}

PrintfOutput merge_printf(std::span<const PrintfLog* const> logs, uint64_t capacity) {
  std::vector<const PrintfRecord*> all;
  PrintfOutput out;
  for (const PrintfLog* l : logs) {
    out.dropped += l->dropped();
    for (const auto& r : l->records()) all.push_back(&r);
  }
  // Admission in write order (the FIFO on the GPU fills in time order).
  std::sort(all.begin(), all.end(), [](const PrintfRecord* a, const PrintfRecord* b) {
    return std::tie(a->cycle, a->cta, a->warp, a->lane, a->order) <
           std::tie(b->cycle, b->cta, b->warp, b->lane, b->order);
  });
  std::vector<const PrintfRecord*> kept;
  uint64_t used = 0, text = 0;
  for (const PrintfRecord* r : all) {
    if (r->bytes > capacity - std::min(capacity, used) || text + r->text.size() > kMaxTextBytes) {
      ++out.dropped;
      continue;
    }
    used += r->bytes;
    text += r->text.size();
    kept.push_back(r);
  }
  std::sort(kept.begin(), kept.end(), [](const PrintfRecord* a, const PrintfRecord* b) {
    return std::tie(a->cta, a->warp, a->lane, a->order) < std::tie(b->cta, b->warp, b->lane, b->order);
  });
  out.text.reserve(text);
  for (const PrintfRecord* r : kept) out.text += r->text;
  out.records = kept.size();
  return out;
}

}  // namespace tcsim::sim
