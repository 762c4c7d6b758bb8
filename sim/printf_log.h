// The device printf FIFO of one partition, and the launch's printf output made from all of them
// (docs/printf.md). Each vprintf call becomes a record; a record that does not fit the FIFO's
// capacity (LaunchConfig::printf_fifo_bytes, CUDA's cudaLimitPrintfFifoSize) is dropped and
// counted, as the GPU drops it. At the end of the launch the partitions' records are admitted to
// one FIFO in the order they were written (simulated cycle, then CTA, warp, lane, call) and the
// survivors printed in (CTA linear id, warp, lane, call) order: the same text with any number of
// host threads.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tcsim::sim {

// The bytes a printf call takes in the FIFO: a header, one 8-byte slot per argument, the format
// string and the %s strings it copies, each rounded up to 8 bytes (docs/printf.md "FIFO": the slots
// and the format copy after them are what the H200's output shows; the header size and the
// strings' place are a model choice, UNCONFIRMED).
uint64_t printf_record_bytes(uint64_t slots, uint64_t format_bytes, uint64_t string_bytes);

struct LaunchState;
// The FIFO's capacity for a launch: LaunchConfig::printf_fifo_bytes, at least 512 KiB (the H200's
// driver reads a request of 4096 back as 524288); 0 asks for the default, 64 KiB per SM (the
// H200's CU_LIMIT_PRINTF_FIFO_SIZE reads 8650752 = 132 x 65536; per SM is an inference).
uint64_t printf_fifo_capacity(const LaunchState& L);

struct PrintfRecord {
  uint64_t cycle = 0;
  uint32_t cta = 0;   // CTA linear id
  uint32_t warp = 0;
  uint32_t lane = 0;
  uint64_t order = 0;  // the call's place in its partition's program order (a thread's calls in order)
  uint64_t bytes = 0;  // printf_record_bytes
  std::string text;
};

class PrintfLog {
 public:
  // Keeps `r` if its bytes fit what is left of `capacity`; false (dropped, counted) otherwise.
  bool add(uint64_t capacity, PrintfRecord r);
  // A call not kept for another reason (a width or precision too large to format).
  void drop() { ++dropped_; }
  const std::vector<PrintfRecord>& records() const { return records_; }
  uint64_t dropped() const { return dropped_; }

 private:
  std::vector<PrintfRecord> records_;
  uint64_t bytes_ = 0;
  uint64_t text_ = 0;
  uint64_t dropped_ = 0;
  uint64_t next_order_ = 0;
};

struct PrintfOutput {
  std::string text;
  uint64_t records = 0;
  uint64_t dropped = 0;
};

// The launch's output: every partition's records through one FIFO of `capacity` bytes.
PrintfOutput merge_printf(std::span<const PrintfLog* const> logs, uint64_t capacity);

}  // namespace tcsim::sim
