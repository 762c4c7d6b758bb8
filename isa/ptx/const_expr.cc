// Constant expressions in PTX operands, array sizes and initializers (PTX ISA §4.6 "Constant
// expressions"): integer literals in decimal, hex, octal and binary, the unary - ~ ! operators,
// * / % + - << >> & ^ | with C precedence, parentheses; float literals (0fXXXXXXXX, 0dXXXXXXXX
// and decimal) as single constants, optionally negated.
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "isa/ptx/parser_impl.h"

namespace tcsim::isa::ptx::detail {
namespace {

uint64_t parse_int_literal(std::string_view t, bool* ok) {
  *ok = true;
  if (!t.empty() && t.back() == 'U') t.remove_suffix(1);
  int base = 10;
  size_t i = 0;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    i = 2;
  } else if (t.size() > 2 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) {
    base = 2;
    i = 2;
  } else if (t.size() > 1 && t[0] == '0') {
    base = 8;
    i = 1;
  }
  uint64_t v = 0;
  for (; i < t.size(); ++i) {
    char c = t[i];
    unsigned d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c - 'A' + 10;
    if (d >= static_cast<unsigned>(base)) {
      *ok = false;
      return 0;
    }
    uint64_t nv = v * base + d;
    if (nv / base != v) *ok = false;  // overflow
    v = nv;
  }
  return v;
}

}  // namespace

double ConstValue::as_double() const {
  if (kind == ImmKind::Int) return static_cast<double>(bits);
  if (kind == ImmKind::F64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// Precedence climbing over integer values; a float literal may only stand alone (possibly negated).
ConstValue Parser::parse_const() {
  struct Climber {
    Parser& p;
    ConstValue unary() {
      const Token t = p.peek();  // a copy: take() below pops the token a reference would point to
      const Parser::Nest nest(p, t);
      if (t.is('-') || t.is('~') || t.is('!')) {
        char op = t.text[0];
        p.take();
        ConstValue v = unary();
        if (v.kind != ImmKind::Int) {
          if (op != '-') p.fail(t, fmt::format("operator '{}' applied to a float", op));
          v.bits ^= v.kind == ImmKind::F32 ? int64_t{0x80000000} : INT64_MIN;
          return v;
        }
        if (op == '-') v.bits = static_cast<int64_t>(0 - static_cast<uint64_t>(v.bits));
        if (op == '~') v.bits = ~v.bits;
        if (op == '!') v.bits = v.bits == 0;
        return v;
      }
      if (t.is('(')) {
        p.take();
        ConstValue v = binary(0);
        p.expect(')', "constant expression");
        return v;
      }
      if (t.kind == Tok::Int) {
        Token tok = p.take();
        bool ok;
        ConstValue v;
        v.bits = static_cast<int64_t>(parse_int_literal(tok.text, &ok));
        if (!ok) p.fail(tok, "malformed or out-of-range integer literal");
        return v;
      }
      if (t.kind == Tok::Float) {
        Token tok = p.take();
        ConstValue v;
        std::string_view s = tok.text;
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
          if (s.size() != 10) p.fail(tok, "a 0f float literal needs exactly 8 hex digits");
          bool ok;
          v.kind = ImmKind::F32;
          v.bits = static_cast<int64_t>(parse_int_literal(fmt::format("0x{}", s.substr(2)), &ok));
        } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
          if (s.size() != 18) p.fail(tok, "a 0d float literal needs exactly 16 hex digits");
          bool ok;
          v.kind = ImmKind::F64;
          v.bits = static_cast<int64_t>(parse_int_literal(fmt::format("0x{}", s.substr(2)), &ok));
        } else {
          // Decimal float literals are f64 values (PTX ISA §4.5.1).
          std::string buf(s);
          double d = std::strtod(buf.c_str(), nullptr);
          v.kind = ImmKind::F64;
          v.decimal = true;
          std::memcpy(&v.bits, &d, 8);
        }
        return v;
      }
      p.fail(t, "expected a constant");
    }
    static int prec(const Token& t) {
      if (t.kind != Tok::Punct) return -1;
      switch (t.text[0]) {
        case '*': case '/': case '%': return 10;
        case '+': case '-': return 9;
        case '<': case '>': return 8;  // << >> (two tokens)
        case '&': return 7;
        case '^': return 6;
        case '|': return 5;
        default: return -1;
      }
    }
    ConstValue binary(int min_prec) {
      ConstValue lhs = unary();
      for (;;) {
        const Token& t = p.peek();
        int pr = prec(t);
        if (pr < min_prec || pr < 0) return lhs;
        char op = t.text[0];
        if (op == '<' || op == '>') {
          if (!p.peek(1).is(op)) return lhs;
          p.take();
        }
        Token optok = p.take();
        ConstValue rhs = binary(pr + 1);
        if (lhs.kind != ImmKind::Int || rhs.kind != ImmKind::Int)
          p.fail(optok, "arithmetic on float constants is not supported");
        uint64_t a = static_cast<uint64_t>(lhs.bits), b = static_cast<uint64_t>(rhs.bits);
        uint64_t r = 0;
        switch (op) {
          case '*': r = a * b; break;
          case '/':
            if (b == 0) p.fail(optok, "division by zero in a constant expression");
            r = static_cast<uint64_t>(lhs.bits / rhs.bits);
            break;
          case '%':
            if (b == 0) p.fail(optok, "division by zero in a constant expression");
            r = static_cast<uint64_t>(lhs.bits % rhs.bits);
            break;
          case '+': r = a + b; break;
          case '-': r = a - b; break;
          case '<': r = b >= 64 ? 0 : a << b; break;
          case '>': r = b >= 64 ? 0 : static_cast<uint64_t>(lhs.bits >> (b > 63 ? 63 : b)); break;
          case '&': r = a & b; break;
          case '^': r = a ^ b; break;
          case '|': r = a | b; break;
        }
        lhs.bits = static_cast<int64_t>(r);
      }
    }
  };
  Climber c{*this};
  return c.binary(0);
}

int64_t Parser::parse_int_expr(std::string_view context) {
  const Token at = peek();
  ConstValue v = parse_const();
  if (v.kind != ImmKind::Int) fail(at, fmt::format("expected an integer for {}", context));
  return v.bits;
}

}  // namespace tcsim::isa::ptx::detail
