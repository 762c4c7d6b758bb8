#include "tools/spec/npy.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "tools/spec/host_memory.h"
#include "tools/spec/input_file.h"
#include "tools/spec/spec_error.h"

namespace tcsim::spec {
static_assert(std::endian::native == std::endian::little,
              "tcsim's device images and .npy data are little-endian; a big-endian host needs swaps");

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw SpecError(fmt::format("{}: not a usable .npy file: {}", path, what));
}

// A tiny reader for the header's Python literal: only the three keys NumPy writes.
struct HeaderParser {
  std::string_view s;
  size_t p = 0;
  const std::string& path;

  void ws() {
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r')) ++p;
  }
  bool eat(char c) {
    ws();
    if (p < s.size() && s[p] == c) {
      ++p;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(path, fmt::format("header: expected '{}' at offset {} in \"{}\"", c, p, s));
  }
  std::string str() {
    ws();
    if (p >= s.size() || (s[p] != '\'' && s[p] != '"'))
      fail(path, fmt::format("header: expected a string at offset {} in \"{}\"", p, s));
    const char q = s[p++];
    const size_t b = p;
    while (p < s.size() && s[p] != q) ++p;
    if (p >= s.size()) fail(path, "header: unterminated string");
    return std::string(s.substr(b, p++ - b));
  }
  uint64_t integer() {
    ws();
    const size_t b = p;
    uint64_t v = 0;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
      if (v > (UINT64_MAX - 9) / 10) fail(path, "header: shape value too large");
      v = v * 10 + static_cast<uint64_t>(s[p++] - '0');
    }
    if (p == b) fail(path, fmt::format("header: expected an integer at offset {} in \"{}\"", p, s));
    if (p < s.size() && s[p] == 'L') ++p;  // Python 2 long suffix
    return v;
  }
};

struct ParsedDescr {
  bool swap;
  uint32_t size;
};

ParsedDescr parse_descr(const std::string& path, std::string& d) {
  if (d.size() < 3) fail(path, fmt::format("unsupported dtype descr '{}'", d));
  const char order = d[0];
  const char kind = d[1];
  if (order == '=') d[0] = '<';
  if (order != '<' && order != '>' && order != '|' && order != '=')
    fail(path, fmt::format("unsupported byte order in descr '{}'", d));
  if (kind != 'i' && kind != 'u' && kind != 'f' && kind != 'b' && kind != 'V' && kind != 'c')
    fail(path, fmt::format("unsupported dtype descr '{}' (expected an integer, float, bool or "
                           "void type such as '<f4', '|u1')", d));
  uint32_t size = 0;
  for (size_t i = 2; i < d.size(); ++i) {
    if (d[i] < '0' || d[i] > '9' || size > 1u << 20)
      fail(path, fmt::format("unsupported dtype descr '{}'", d));
    size = size * 10 + static_cast<uint32_t>(d[i] - '0');
  }
  if (size == 0) fail(path, fmt::format("dtype descr '{}' has no size", d));
  return {order == '>' && size > 1, size};
}

// The header of the .npy file `path`: magic, version, header length, then the dict literal (read
// from the file's first bytes only; `file_size` gets the whole file's size).
NpyHeader parse_header(const std::string& path, uint64_t* file_size) {
  std::string pre;
  try {
    pre = read_regular_file_prefix(path, 12, file_size);
  } catch (const InputFileError& e) {
    throw SpecError(fmt::format("{}: {}", path, e.what()));
  }
  if (pre.size() < 8) fail(path, "file is truncated");
  if (pre.compare(0, 6, kMagic) != 0) fail(path, "no \\x93NUMPY magic at the start");
  const int major = static_cast<unsigned char>(pre[6]);
  uint64_t hlen = 0, off = 0;
  if (major == 1) {
    if (pre.size() < 10) fail(path, "file is truncated");
    hlen = static_cast<unsigned char>(pre[8]) | static_cast<unsigned>(static_cast<unsigned char>(pre[9])) << 8;
    off = 10;
  } else if (major == 2 || major == 3) {
    if (pre.size() < 12) fail(path, "file is truncated");
    for (int i = 11; i >= 8; --i) hlen = hlen << 8 | static_cast<unsigned char>(pre[i]);
    off = 12;
  } else {
    fail(path, fmt::format("format version {}.{} (this reader knows 1.0, 2.0, 3.0)", major,
                           static_cast<int>(static_cast<unsigned char>(pre[7]))));
  }
  if (hlen > (1u << 24)) fail(path, "header length is implausible");
  if (off + hlen > *file_size) fail(path, "file is truncated");
  std::string all;
  try {
    all = read_regular_file_prefix(path, off + hlen, file_size);
  } catch (const InputFileError& e) {
    throw SpecError(fmt::format("{}: {}", path, e.what()));
  }
  if (all.size() < off + hlen) fail(path, "file is truncated");
  const std::string text = all.substr(off);

  NpyHeader h;
  h.data_offset = off + hlen;
  std::optional<bool> fortran;
  bool have_descr = false, have_shape = false;
  HeaderParser hp{text, 0, path};
  hp.expect('{');
  while (!hp.eat('}')) {
    const std::string key = hp.str();
    hp.expect(':');
    if (key == "descr") {
      hp.ws();
      if (hp.p < text.size() && text[hp.p] == '[')
        fail(path, "structured (record) dtypes are not supported");
      h.descr = hp.str();
      have_descr = true;
    } else if (key == "fortran_order") {
      hp.ws();
      if (text.compare(hp.p, 4, "True") == 0) {
        fortran = true;
        hp.p += 4;
      } else if (text.compare(hp.p, 5, "False") == 0) {
        fortran = false;
        hp.p += 5;
      } else {
        fail(path, "header: fortran_order is neither True nor False");
      }
    } else if (key == "shape") {
      hp.expect('(');
      while (!hp.eat(')')) {
        h.shape.push_back(hp.integer());
        if (!hp.eat(',')) {
          hp.expect(')');
          break;
        }
      }
      have_shape = true;
    } else {
      fail(path, fmt::format("header: unknown key '{}'", key));
    }
    if (!hp.eat(',')) {
      hp.expect('}');
      break;
    }
  }
  if (!have_descr || !have_shape || !fortran)
    fail(path, "header lacks one of 'descr', 'fortran_order', 'shape'");
  if (*fortran && h.shape.size() > 1)
    fail(path, "Fortran-order (column-major) arrays are not supported: save with "
               "numpy.ascontiguousarray");
  h.item_size = parse_descr(path, h.descr).size;
  return h;
}

}  // namespace

uint64_t NpyHeader::count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) {
    if (d != 0 && n > UINT64_MAX / d) return UINT64_MAX;
    n *= d;
  }
  return n;
}

NpyHeader read_npy_header(const std::string& path) {
  uint64_t size = 0;
  return parse_header(path, &size);
}

NpyArray read_npy(const std::string& path) {
  NpyArray a;
  uint64_t file_size = 0;
  a.header = parse_header(path, &file_size);
  std::string descr = a.header.descr;
  const ParsedDescr pd = parse_descr(path, descr);
  const uint64_t count = a.header.count();
  if (count != 0 && count > (uint64_t{1} << 40) / a.header.item_size)
    fail(path, "the array is larger than 1 TiB");
  const uint64_t bytes = count * a.header.item_size;
  const uint64_t have = file_size - a.header.data_offset;
  if (have < bytes)
    fail(path, fmt::format("data is truncated: the header promises {} bytes ({} elements of {} "
                           "bytes), the file has {}", bytes, count, a.header.item_size, have));
  if (have > bytes) fail(path, fmt::format("trailing bytes after the {} data bytes the header promises", bytes));
  check_host_memory(2 * bytes, path, "", "reading this .npy file");
  std::string all;
  try {
    all = read_regular_file(path, file_size);
  } catch (const InputFileError& e) {
    throw SpecError(fmt::format("{}: {}", path, e.what()));
  }
  if (all.size() != file_size) fail(path, "the file changed while it was being read");
  a.data.resize(bytes);
  // An array of zero elements (a 0 in its shape) has no data: memcpy of a null pointer is undefined
  // even for 0 bytes (found by fuzz_npy_reader, tests/fuzz/npy_reader/crash_zero_elements.npy).
  if (bytes) std::memcpy(a.data.data(), all.data() + a.header.data_offset, bytes);
  if (pd.swap) {
    for (uint64_t i = 0; i < count; ++i)
      std::reverse(a.data.begin() + static_cast<std::ptrdiff_t>(i * pd.size),
                   a.data.begin() + static_cast<std::ptrdiff_t>((i + 1) * pd.size));
    a.header.descr[0] = '<';
  }
  return a;
}

std::string npy_header_bytes(const std::string& descr, const std::vector<uint64_t>& shape) {
  std::string dims;
  for (uint64_t d : shape) dims += fmt::format("{}, ", d);
  if (shape.size() > 1) dims.resize(dims.size() - 2);  // (5,) for one dim, (2, 3) for more
  else if (shape.size() == 1) dims.resize(dims.size() - 1);
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr, dims);
  // Pad with spaces, end with '\n', so that magic(6)+version(2)+len(2)+header is a multiple of 64.
  const size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string h(kMagic);
  h += '\x01';
  h += '\x00';
  h += static_cast<char>(dict.size() & 0xff);
  h += static_cast<char>(dict.size() >> 8);
  return h + dict;
}

void write_npy(const std::string& path, const std::string& descr,
               const std::vector<uint64_t>& shape, const void* data, uint64_t bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw SpecError(fmt::format("{}: cannot create the file", path));
  const std::string h = npy_header_bytes(descr, shape);
  f.write(h.data(), static_cast<std::streamsize>(h.size()));
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  f.close();
  if (!f) throw SpecError(fmt::format("{}: write failed", path));
}

}  // namespace tcsim::spec
