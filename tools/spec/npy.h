// NumPy .npy files (format 1.0 written; 1.0, 2.0 and 3.0 read), the storage of every launch-spec
// input file and output. Format: "\x93NUMPY", major, minor, a little-endian header length (u16 in
// 1.0, u32 in 2.0/3.0), then a Python dict literal {'descr': ..., 'fortran_order': ...,
// 'shape': (...), } padded with spaces and a '\n' so the data starts at a multiple of 64 bytes
// (numpy/lib/format.py, "NEP 1 — A simple file format for NumPy arrays").
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tcsim::spec {

struct NpyHeader {
  std::string descr;            // e.g. "<f4", "|u1" (as read; the reader normalises '=' to '<')
  std::vector<uint64_t> shape;  // () for a 0-d array
  uint32_t item_size = 0;       // from descr
  uint64_t data_offset = 0;     // bytes before the data

  uint64_t count() const;       // product of shape (1 for a 0-d array)
};

struct NpyArray {
  NpyHeader header;
  std::vector<std::byte> data;  // little-endian element bytes (big-endian files are byte-swapped)
};

// Throws SpecError("PATH: what is wrong") on an unreadable, truncated or unsupported file
// (Fortran order, object arrays, structured dtypes, a data size that disagrees with the shape).
NpyHeader read_npy_header(const std::string& path);
NpyArray read_npy(const std::string& path);
// Reads the data of `path` straight into `out` (the device bytes of a buffer: no copy of the file
// in host memory), byte-swapped in place from a big-endian file, with every check of read_npy;
// out.size() must be the data size its header states (the caller judged the header with
// read_npy_header: a file whose size then differs changed meanwhile, an error). Returns the header
// (descr normalised to little-endian).
NpyHeader read_npy_into(const std::string& path, std::span<std::byte> out);

// Writes format 1.0. `descr` must be a simple little-endian or '|' type (e.g. "<f4", "|u1");
// data.size() must be count(shape) * item size. Throws SpecError on an I/O error.
void write_npy(const std::string& path, const std::string& descr,
               const std::vector<uint64_t>& shape, const void* data, uint64_t bytes);

// The header bytes write_npy emits (magic through padding), exposed for tests.
std::string npy_header_bytes(const std::string& descr, const std::vector<uint64_t>& shape);

}  // namespace tcsim::spec
