// PTX tokens (PTX ISA §4 "Syntax"): identifiers (incl. %reg, $label), dotted words (.global,
// .shared::cta, .32x32b), integer and float literals (0x.., 0f.., 0d.., 1.5e3), strings and
// punctuation. Comments (// and /* */) are skipped. Tokens are views into the source text.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace tcsim::isa::ptx {

enum class Tok : uint8_t {
  End,
  Ident,    // foo, %r1, $L__BB0_2, _  (no dot)
  DotWord,  // .global, .shared::cta, .2d (text includes the dot)
  Int,      // 42, 0x2A, 017, 0b101, 42U
  Float,    // 0f3F800000, 0d3FF0000000000000, 1.5, 1e-3
  String,   // "..." (text includes the quotes)
  Punct,    // one of , ; : [ ] { } ( ) < > + - ! | @ = * / % & ^ ~ ?
  Error,    // a character that starts no token
};

// The longest token the lexer returns (identifiers, literals, strings): the longest mangled names
// nvcc emits for template-heavy kernels are a few thousand characters. Longer: a Tok::Error token
// with `too_long` set (the parser reports it), never a megabyte-long name in the IR or a message.
inline constexpr size_t kMaxTokenLength = 65536;

struct Token {
  Tok kind = Tok::End;
  bool too_long = false;  // Tok::Error: the token exceeds kMaxTokenLength (text is its first part)
  std::string_view text;
  uint32_t line = 0, col = 0;
  bool is(char c) const { return kind == Tok::Punct && text.size() == 1 && text[0] == c; }
};

class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}
  Token next();

 private:
  void skip_space_and_comments();
  char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
  void advance(size_t n = 1);

  std::string_view src_;
  size_t pos_ = 0;
  uint32_t line_ = 1, col_ = 1;
};

}  // namespace tcsim::isa::ptx
