// PTX lexer (PTX ISA §4.1-4.5: source format, comments, identifiers, constants).
#include "isa/ptx/lexer.h"

namespace tcsim::isa::ptx {
namespace {

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}
bool digit(char c) { return c >= '0' && c <= '9'; }
bool hex_digit(char c) {
  return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

}  // namespace

void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < src_.size(); ++i) {
    if (src_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
}

void Lexer::skip_space_and_comments() {
  for (;;) {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      advance();
    } else if (c == '/' && peek(1) == '/') {
      while (pos_ < src_.size() && peek() != '\n') advance();
    } else if (c == '/' && peek(1) == '*') {
      advance(2);
      while (pos_ < src_.size() && !(peek() == '*' && peek(1) == '/')) advance();
      advance(2);
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  skip_space_and_comments();
  Token t;
  t.line = line_;
  t.col = col_;
  const size_t start = pos_;
  if (pos_ >= src_.size()) {
    t.kind = Tok::End;
    return t;
  }
  const char c = peek();
  auto finish = [&](Tok k) {
    t.kind = k;
    t.text = src_.substr(start, pos_ - start);
    if (t.text.size() > kMaxTokenLength) {
      t.kind = Tok::Error;
      t.too_long = true;
      t.text = t.text.substr(0, 64);
    }
    return t;
  };
  if (ident_start(c) && !(c == '%' && !ident_char(peek(1)))) {
    advance();
    while (ident_char(peek())) advance();
    return finish(Tok::Ident);
  }
  if (c == '.' && (ident_char(peek(1)))) {
    // .word, .word::word::word (e.g. .mbarrier::complete_tx::bytes), .2d, .32x32b
    advance();
    for (;;) {
      while (ident_char(peek())) advance();
      if (peek() == ':' && peek(1) == ':' && ident_char(peek(2))) {
        advance(2);
        continue;
      }
      break;
    }
    return finish(Tok::DotWord);
  }
  if (digit(c)) {
    if (c == '0' && (peek(1) == 'f' || peek(1) == 'F' || peek(1) == 'd' || peek(1) == 'D') &&
        hex_digit(peek(2))) {
      advance(2);
      while (hex_digit(peek())) advance();
      return finish(Tok::Float);
    }
    if (c == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      advance(2);
      while (hex_digit(peek())) advance();
      if (peek() == 'U') advance();
      return finish(Tok::Int);
    }
    if (c == '0' && (peek(1) == 'b' || peek(1) == 'B') && (peek(2) == '0' || peek(2) == '1')) {
      advance(2);
      while (peek() == '0' || peek() == '1') advance();
      if (peek() == 'U') advance();
      return finish(Tok::Int);
    }
    while (digit(peek())) advance();
    bool is_float = false;
    if (peek() == '.' && digit(peek(1))) {
      is_float = true;
      advance();
      while (digit(peek())) advance();
    } else if (peek() == '.' && !ident_char(peek(1))) {
      is_float = true;  // "1." form
      advance();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && digit(peek(2))))) {
      is_float = true;
      advance(2);
      while (digit(peek())) advance();
    }
    if (!is_float && peek() == 'U') advance();
    return finish(is_float ? Tok::Float : Tok::Int);
  }
  if (c == '"') {
    advance();
    while (pos_ < src_.size() && peek() != '"' && peek() != '\n') {
      if (peek() == '\\') advance();
      advance();
    }
    if (peek() != '"') {
      t.kind = Tok::Error;
      t.text = src_.substr(start, pos_ - start);
      return t;
    }
    advance();
    return finish(Tok::String);
  }
  constexpr std::string_view kPunct = ",;:[]{}()<>+-!|@=*/%&^~?";
  if (kPunct.find(c) != std::string_view::npos) {
    advance();
    return finish(Tok::Punct);
  }
  advance();
  return finish(Tok::Error);
}

}  // namespace tcsim::isa::ptx
