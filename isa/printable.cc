// Printable, bounded diagnostics (printable.h).
#include "isa/printable.h"

#include <cstdint>
#include <vector>

#include <fmt/format.h>

namespace tcsim::isa {
namespace {

// Length of the valid UTF-8 sequence at s[i] (1 to 4), or 0 when the bytes there are not one
// (RFC 3629 §4: no overlong forms, no surrogates, nothing above U+10FFFF). C1 controls
// (U+0080-U+009F) count as invalid here: terminals act on them like control bytes.
size_t utf8_len(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  const uint8_t c = b(0);
  const size_t left = s.size() - i;
  auto cont = [&](size_t k) { return k < left && (b(k) & 0xC0) == 0x80; };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) && !(c == 0xC2 && b(1) < 0xA0) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
    if (c == 0xED && b(1) >= 0xA0) return 0; // surrogates
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;  // overlong
    if (c == 0xF4 && b(1) >= 0x90) return 0; // above U+10FFFF
    return 4;
  }
  return 0;
}

// Appends the printable form of s[i...] (one character or byte) and returns how many input bytes it
// took. `keep_tab`: a tab stays a tab (inside a message line) instead of \t (inside a token).
size_t escape_one(std::string_view s, size_t i, std::string& out, bool keep_tab) {
  const uint8_t c = static_cast<uint8_t>(s[i]);
  if (c >= 0x20 && c < 0x7f) {
    out += static_cast<char>(c);
    return 1;
  }
  switch (c) {
    case '\n': out += "\\n"; return 1;
    case '\r': out += "\\r"; return 1;
    case '\t':
      out += keep_tab ? "\t" : "\\t";
      return 1;
    default: break;
  }
  if (c >= 0x80) {
    if (const size_t n = utf8_len(s, i)) {
      out.append(s.substr(i, n));
      return n;
    }
  }
  out += fmt::format("\\x{:02x}", c);
  return 1;
}

}  // namespace

std::string printable_token(std::string_view s, size_t max_chars) {
  std::string out;
  std::vector<size_t> starts;  // where each input character's printable form begins in `out`
  const bool may_elide = s.size() > max_chars / 4;
  out.reserve(s.size() < (1u << 20) ? s.size() : (1u << 20));
  for (size_t i = 0; i < s.size();) {
    if (may_elide) starts.push_back(out.size());
    i += escape_one(s, i, out, false);
  }
  if (out.size() <= max_chars) return out;
  // Head and tail at character boundaries around the marker.
  const size_t head_budget = max_chars * 2 / 3, tail_budget = max_chars / 4;
  size_t head = 0, tail = out.size();
  for (size_t k = 0; k < starts.size() && starts[k] <= head_budget; ++k) head = starts[k];
  for (size_t k = starts.size(); k-- > 0;) {
    if (out.size() - starts[k] > tail_budget) break;
    tail = starts[k];
  }
  if (tail < head) tail = head;
  return fmt::format("{}...({} bytes)...{}", out.substr(0, head), s.size(), out.substr(tail));
}

std::string bounded_message(std::string_view msg) {
  std::string out;
  size_t lines = 0, pos = 0;
  while (pos <= msg.size()) {
    size_t eol = msg.find('\n', pos);
    if (eol == std::string_view::npos) eol = msg.size();
    const std::string_view line = msg.substr(pos, eol - pos);
    if (lines == kMaxMessageLines) {
      size_t rest = 1;
      for (size_t k = eol; k < msg.size(); ++k) rest += msg[k] == '\n';
      out += fmt::format("... ({} more lines)", rest);
      break;
    }
    if (lines) out += '\n';
    ++lines;
    std::string l;
    for (size_t i = 0; i < line.size() && l.size() <= kMaxLineChars;) {
      if (line[i] == ' ' || line[i] == '\t') {
        l += line[i++];
        continue;
      }
      size_t e = i;
      while (e < line.size() && line[e] != ' ' && line[e] != '\t') ++e;
      l += printable_token(line.substr(i, e - i), kMaxTokenChars);
      i = e;
    }
    if (l.size() > kMaxLineChars) {
      size_t cut = kMaxLineChars;
      while (cut > 0 && (static_cast<uint8_t>(l[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
      l.resize(cut);
      l += " ...(line cut)";
    }
    out += l;
    if (eol == msg.size()) break;
    pos = eol + 1;
  }
  return out;
}

}  // namespace tcsim::isa
