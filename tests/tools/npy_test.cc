// .npy reading and writing (tools/spec/npy.h) against the format's definition (NumPy's NEP 1,
// numpy/lib/format.py): header text, alignment, every storage type, versions 2.0 and big-endian.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <span>
#include <vector>

#include "tests/tools/test_util.h"
#include "tools/spec/npy.h"
#include "tools/spec/spec_dtype.h"
#include "tools/spec/spec_error.h"

using namespace tcsim::spec;

namespace {
std::string read_all(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}
std::string error_of(const std::string& path) {
  try {
    read_npy(path);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("npy: header text and alignment as numpy writes them") {
  const std::string h = npy_header_bytes("<f4", {2, 3});
  // Magic, version 1.0, little-endian u16 header length, then the dict repr numpy produces
  // (keys sorted, trailing ", " before "}"), spaces, '\n'; data 64-byte aligned.
  CHECK(h.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  CHECK(h.size() % 64 == 0);
  CHECK(static_cast<size_t>(static_cast<unsigned char>(h[8]) | static_cast<unsigned char>(h[9]) << 8) == h.size() - 10);
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  CHECK(h.substr(10, dict.size()) == dict);
  CHECK(h.find_first_not_of(' ', 10 + dict.size()) == h.size() - 1);  // then only spaces
  CHECK(h.back() == '\n');
  CHECK(npy_header_bytes("|u1", {5}).find("'shape': (5,), }") != std::string::npos);  // 1-tuple
  CHECK(npy_header_bytes("|u1", {}).find("'shape': (), }") != std::string::npos);     // 0-d
}

TEST_CASE("npy: round trip of every launch-spec dtype's storage") {
  test::TempDir dir;
  for (const auto& t : kSpecDTypes) {
    CAPTURE(t.name);
    std::vector<std::byte> data(3 * 4 * t.bytes);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>(i * 37 + 11);
    const std::string p = dir / (std::string(t.name) + ".npy");
    write_npy(p, std::string(t.npy_descr), {3, 4}, data.data(), data.size());
    const NpyArray a = read_npy(p);
    CHECK(a.header.descr == t.npy_descr);
    CHECK(a.header.shape == std::vector<uint64_t>{3, 4});
    CHECK(a.header.item_size == t.bytes);
    CHECK(a.data == data);
    CHECK(read_all(p).size() == npy_header_bytes(std::string(t.npy_descr), {3, 4}).size() + data.size());
  }
}

TEST_CASE("npy: storage types of LAUNCH_SPEC.md") {
  CHECK(info(SpecDType::F16).npy_descr == "<f2");
  CHECK(info(SpecDType::BF16).npy_descr == "<u2");
  CHECK(info(SpecDType::F32).npy_descr == "<f4");
  CHECK(info(SpecDType::F64).npy_descr == "<f8");
  for (SpecDType t : {SpecDType::E4M3, SpecDType::E5M2, SpecDType::E2M3, SpecDType::E3M2,
                      SpecDType::E2M1X2, SpecDType::UE8M0, SpecDType::UE4M3})
    CHECK(info(t).npy_descr == "|u1");
  CHECK(info(SpecDType::I8).npy_descr == "|i1");
  CHECK(info(SpecDType::I64).npy_descr == "<i8");
}

TEST_CASE("npy: version 2.0 header and big-endian data are read") {
  test::TempDir dir;
  std::string dict = "{'descr': '>u2', 'fortran_order': False, 'shape': (2,), }";
  while ((12 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::string f("\x93NUMPY\x02\x00", 8);
  const uint32_t len = static_cast<uint32_t>(dict.size());
  f.append(reinterpret_cast<const char*>(&len), 4);
  f += dict;
  f += std::string("\x12\x34\xab\xcd", 4);
  test::write_text(dir / "v2.npy", f);
  const NpyArray a = read_npy(dir / "v2.npy");
  CHECK(a.header.descr == "<u2");  // normalised after the swap
  uint16_t v[2];
  std::memcpy(v, a.data.data(), 4);
  CHECK(v[0] == 0x1234);
  CHECK(v[1] == 0xabcd);
}

TEST_CASE("npy: unusable files get one clear error") {
  test::TempDir dir;
  CHECK(error_of(dir / "none.npy").find("none.npy: does not exist") != std::string::npos);
  test::write_text(dir / "text.npy", "hello world, not numpy");
  CHECK(error_of(dir / "text.npy").find("no \\x93NUMPY magic") != std::string::npos);
  const float x[4] = {1, 2, 3, 4};
  write_npy(dir / "t.npy", "<f4", {4}, x, 16);
  std::string s = read_all(dir / "t.npy");
  test::write_text(dir / "trunc.npy", s.substr(0, s.size() - 3));
  CHECK(error_of(dir / "trunc.npy").find("data is truncated") != std::string::npos);
  test::write_text(dir / "extra.npy", s + "xx");
  CHECK(error_of(dir / "extra.npy").find("trailing bytes") != std::string::npos);
  std::string h = npy_header_bytes("<f4", {2, 2});
  const size_t p = h.find("False");
  h.replace(p, 5, "True ");
  test::write_text(dir / "fortran.npy", h + std::string(16, '\0'));
  CHECK(error_of(dir / "fortran.npy").find("Fortran-order") != std::string::npos);
  std::string o = npy_header_bytes("|O8", {1});
  test::write_text(dir / "obj.npy", o + std::string(8, '\0'));
  CHECK(error_of(dir / "obj.npy").find("unsupported dtype descr '|O8'") != std::string::npos);
}

TEST_CASE("npy: read_npy_into reads the data in place, swapped, with read_npy's checks") {
  test::TempDir dir;
  // Big-endian u4, more than one 8 MiB read chunk (tools/spec/input_file.cc): 3 Mi elements.
  const uint64_t n = 3u << 20;
  std::string data(n * 4, '\0');
  for (uint64_t i = 0; i < n; ++i)
    for (int b = 0; b < 4; ++b) data[i * 4 + static_cast<uint64_t>(b)] = static_cast<char>(i >> (8 * (3 - b)));
  std::string h = npy_header_bytes("<u4", {n});
  h.replace(h.find("'<u4'"), 5, "'>u4'");
  test::write_text(dir / "be.npy", h + data);
  std::vector<std::byte> out(n * 4);
  const NpyHeader got = read_npy_into(dir / "be.npy", out);
  CHECK(got.descr == "<u4");
  uint32_t v[3];
  std::memcpy(&v[0], out.data(), 4);
  std::memcpy(&v[1], out.data() + 4 * 12345, 4);
  std::memcpy(&v[2], out.data() + 4 * (n - 1), 4);
  CHECK(v[0] == 0);
  CHECK(v[1] == 12345);
  CHECK(v[2] == n - 1);
  // The errors of read_npy, and a destination that is not the header's size (the file changed).
  auto error_into = [&](const std::string& p, std::span<std::byte> o) {
    try {
      read_npy_into(p, o);
    } catch (const SpecError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const float x[4] = {1, 2, 3, 4};
  write_npy(dir / "t.npy", "<f4", {4}, x, 16);
  const std::string s = read_all(dir / "t.npy");
  test::write_text(dir / "trunc.npy", s.substr(0, s.size() - 3));
  std::vector<std::byte> small(16);
  CHECK(error_into(dir / "trunc.npy", small).find("data is truncated") != std::string::npos);
  test::write_text(dir / "extra.npy", s + "xx");
  CHECK(error_into(dir / "extra.npy", small).find("trailing bytes") != std::string::npos);
  std::vector<std::byte> wrong(12);
  CHECK(error_into(dir / "t.npy", wrong).find("changed while it was being read") != std::string::npos);
  CHECK(error_into(dir / "none.npy", small).find("does not exist") != std::string::npos);
  CHECK(error_into(dir / "t.npy", small) == "(no error)");
  float y[4];
  std::memcpy(y, small.data(), 16);
  CHECK(y[3] == 4.0f);
}
