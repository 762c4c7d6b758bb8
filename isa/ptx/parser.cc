// PTX module structure: directives, variable declarations with initializers, .entry/.func with
// parameter lists and performance directives, function bodies with scopes, labels and debug
// directives (PTX ISA §4 Syntax, §5 State Spaces/Types/Variables, §7 ABI, §11 Directives).
#include "isa/ptx/parser.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include <fmt/format.h>

#include "isa/printable.h"
#include "isa/ptx/parser_impl.h"

namespace tcsim::isa::ptx {
namespace detail {
namespace {

std::string quoted(std::string_view s) { return fmt::format("'{}'", printable_token(s)); }

std::optional<Space> space_word(std::string_view w) {
  if (w == ".global") return Space::Global;
  if (w == ".const") return Space::Const;
  if (w == ".shared") return Space::Shared;
  if (w == ".local") return Space::Local;
  if (w == ".param") return Space::Param;
  if (w == ".tex") return Space::Tex;
  return std::nullopt;
}

std::optional<Linkage> linkage_word(std::string_view w) {
  if (w == ".visible") return Linkage::Visible;
  if (w == ".extern") return Linkage::Extern;
  if (w == ".weak") return Linkage::Weak;
  if (w == ".common") return Linkage::Common;
  return std::nullopt;
}

void put_le(std::vector<uint8_t>& buf, uint64_t off, uint64_t v, int bytes) {
  for (int i = 0; i < bytes && off + i < buf.size(); ++i) buf[off + i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

Parser::Parser(std::string_view text, std::string source_name)
    : lex_(text), source_name_(std::move(source_name)) {
  m_.source_name = source_name_;
}

const Token& Parser::peek(size_t k) {
  while (la_.size() <= k) {
    la_.push_back(lex_.next());
    if (la_.back().too_long) {
      const Token t = la_.back();
      fail(t, fmt::format("a token longer than {} characters", kMaxTokenLength));
    }
  }
  return la_[k];
}

Token Parser::take() {
  peek();
  Token t = la_.front();
  la_.pop_front();
  return t;
}

bool Parser::accept(char punct) {
  if (peek().is(punct)) {
    take();
    return true;
  }
  return false;
}

bool Parser::accept_word(std::string_view w) {
  if (peek().kind == Tok::DotWord && peek().text == w) {
    take();
    return true;
  }
  return false;
}

void Parser::expect(char punct, std::string_view context) {
  if (!accept(punct))
    fail_here(fmt::format("expected '{}' in {}", punct, context));
}

std::string_view Parser::expect_ident(std::string_view context) {
  if (peek().kind != Tok::Ident) fail_here(fmt::format("expected a name in {}", context));
  return take().text;
}

void Parser::fail(const Token& at, const std::string& what) {
  std::string tok = at.kind == Tok::End ? "end of file" : quoted(at.text);
  throw ParseFail(fmt::format("{}:{}:{}: error: {}, at {}", source_name_, at.line, at.col, what, tok));
}

RegId Parser::find_reg(std::string_view name) const {
  std::string key(name);
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->regs.find(key);
    if (f != it->regs.end()) return f->second;
  }
  return kNoReg;
}

int64_t Parser::find_scoped_symbol(std::string_view name) const {
  std::string key(name);
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->syms.find(key);
    if (f != it->syms.end()) return f->second;
  }
  return -1;
}

Module Parser::run() {
  while (peek().kind != Tok::End) parse_module_item();
  for (const PendingReloc& p : pending_relocs_) {
    Reloc& r = m_.symbols[p.symbol].relocs[p.reloc];
    auto it = module_syms_.find(p.name);
    if (it != module_syms_.end()) {
      r.symbol = it->second;
      continue;
    }
    const int32_t fi = m_.function_index(p.name);
    if (fi < 0)
      throw ParseFail(fmt::format("{}:{}:{}: error: unknown symbol in an initializer, at '{}'", source_name_,
                                  p.loc.line, p.loc.col, p.name));
    r.symbol = static_cast<uint32_t>(fi);
    r.is_function = true;
  }
  return std::move(m_);
}

void Parser::skip_section() {
  // `.section .debug_info { ... }`: DWARF emitted by -G / -lineinfo. Skipped as a balanced block.
  take();  // .section
  if (peek().kind != Tok::DotWord && peek().kind != Tok::Ident) fail_here("expected a section name");
  take();
  expect('{', ".section");
  int depth = 1;
  while (depth > 0) {
    const Token& t = peek();
    if (t.kind == Tok::End) fail_here("unterminated .section block");
    if (t.kind == Tok::Error) fail_here("unexpected character");
    if (t.is('{')) ++depth;
    if (t.is('}')) --depth;
    take();
  }
}

void Parser::parse_loc() {
  // .loc file line col [, function_name label [, inlined_at file line col]]  (PTX ISA §11.5.x)
  take();
  CudaLoc l;
  l.file = static_cast<uint32_t>(parse_int_expr(".loc file"));
  l.line = static_cast<uint32_t>(parse_int_expr(".loc line"));
  l.col = static_cast<uint32_t>(parse_int_expr(".loc column"));
  while (accept(',')) {
    std::string_view key = expect_ident(".loc attribute");
    if (key == "function_name") {
      expect_ident(".loc function_name");
    } else if (key == "inlined_at") {
      l.inlined_file = static_cast<uint32_t>(parse_int_expr(".loc inlined_at file"));
      l.inlined_line = static_cast<uint32_t>(parse_int_expr(".loc inlined_at line"));
      l.inlined_col = static_cast<uint32_t>(parse_int_expr(".loc inlined_at column"));
    } else {
      fail_here(fmt::format("unknown .loc attribute '{}'", key));
    }
  }
  // The inlining chain: the call site `inlined_at F L C` is itself a position nvcc gave a `.loc`
  // earlier in this function, with its own caller's inlined_at when it sits in inlined code too.
  // The latest such `.loc` was resolved when parsed, so one lookup gives the outermost call site
  // (a call site never seen as a `.loc` is taken as the outermost; the chain ends there).
  auto key = [](uint32_t f, uint32_t ln, uint32_t c) {
    return (uint64_t{f} << 44) ^ (uint64_t{ln} << 20) ^ uint64_t{c};
  };
  if (l.inlined_file) {
    l.outer_file = l.inlined_file;
    l.outer_line = l.inlined_line;
    l.outer_col = l.inlined_col;
    l.depth = 1;
    auto it = loc_at_.find(key(l.inlined_file, l.inlined_line, l.inlined_col));
    if (it != loc_at_.end() && it->second.depth > 0) {
      l.outer_file = it->second.outer_file;
      l.outer_line = it->second.outer_line;
      l.outer_col = it->second.outer_col;
      l.depth = it->second.depth + 1;
    }
  }
  loc_at_[key(l.file, l.line, l.col)] = l;
  cur_loc_ = l;
}

void Parser::parse_module_item() {
  const Token t = peek();
  if (t.kind != Tok::DotWord) fail(t, "expected a directive at module scope");
  const std::string_view w = t.text;
  if (w == ".version") {
    take();
    Token v = take();
    if (v.kind != Tok::Float && v.kind != Tok::Int) fail(v, "expected a version number after .version");
    auto dot = v.text.find('.');
    m_.version_major = static_cast<uint32_t>(std::atoi(std::string(v.text.substr(0, dot)).c_str()));
    if (dot != std::string_view::npos)
      m_.version_minor = static_cast<uint32_t>(std::atoi(std::string(v.text.substr(dot + 1)).c_str()));
    return;
  }
  if (w == ".target") {
    take();
    m_.target = std::string(expect_ident(".target"));
    while (accept(',')) {
      std::string_view opt = expect_ident(".target option");
      if (opt == "debug") m_.debug = true;
      else if (opt != "texmode_unified" && opt != "texmode_independent" && opt != "map_f64_to_f32")
        fail_here(fmt::format("unknown .target option '{}'", opt));
    }
    return;
  }
  if (w == ".address_size") {
    take();
    m_.address_size = static_cast<uint32_t>(parse_int_expr(".address_size"));
    if (m_.address_size != 64 && m_.address_size != 32) fail(t, ".address_size must be 32 or 64");
    if (m_.address_size != 64) fail(t, "only .address_size 64 is supported");
    return;
  }
  if (w == ".file") {
    take();
    uint32_t n = static_cast<uint32_t>(parse_int_expr(".file number"));
    if (peek().kind != Tok::String) fail_here("expected a file name string after .file N");
    std::string_view s = take().text;
    m_.files.emplace_back(n, std::string(s.substr(1, s.size() - 2)));
    while (accept(',')) parse_int_expr(".file timestamp/size");
    return;
  }
  if (w == ".section") {
    skip_section();
    return;
  }
  if (w == ".loc") {
    parse_loc();
    return;
  }
  if (w == ".pragma") {
    take();
    if (peek().kind != Tok::String) fail_here("expected a string after .pragma");
    take();
    expect(';', ".pragma");
    return;
  }
  Linkage linkage = Linkage::None;
  if (auto l = linkage_word(w)) {
    take();
    linkage = *l;
  }
  const Token d = peek();
  if (d.kind == Tok::DotWord && (d.text == ".entry" || d.text == ".func")) {
    take();
    parse_function(linkage, d.text == ".entry", {d.line, d.col});
    return;
  }
  if (d.kind == Tok::DotWord) {
    if (auto sp = space_word(d.text); sp && *sp != Space::Param) {
      take();
      bool more = false;  // false: the first name of the declaration (its attributes follow)
      do parse_var(linkage, *sp, -1, ParamRole::None, false, {d.line, d.col}, &more);
      while (more);
      return;
    }
  }
  fail(d, "unknown or unsupported directive at module scope");
}

// One variable name (and its attributes, when `in_param_list` or at the first name of a
// declaration). Grammar (PTX ISA §5.4): {.align N} {.ptr {.space} {.align N}} {.vN} .type
// name{[N]...} {= init}. Returns the symbol index; *more_names is true when a ',' follows (the
// caller passes false for the first name).
uint32_t Parser::parse_var(Linkage linkage, Space space, int32_t function, ParamRole role,
                           bool in_param_list, SourceLoc loc, bool* more_names) {
  // Attributes are only parsed before the first name; later names of a multi-name declaration
  // (*more_names true on entry: a ',' followed the previous name) reuse them. The first name
  // always parses its own, so a declaration without a type is an error, never the previous
  // declaration's (or an empty, zero-byte) type.
  Symbol& proto = var_proto_;
  const bool first = !more_names || !*more_names || peek().kind == Tok::DotWord;
  if (first) {
    proto = Symbol{};
    proto.space = space;
    bool seen_ptr = false, align_set = false;
    int vec = 1;
    for (;;) {
      const Token& t = peek();
      if (t.kind != Tok::DotWord) break;
      std::string_view w = t.text;
      if (w == ".align") {
        take();
        uint32_t a = static_cast<uint32_t>(parse_int_expr(".align"));
        if (a == 0 || (a & (a - 1)) != 0) fail_here(".align must be a power of two");
        if (!seen_ptr) {
          proto.align = a;
          align_set = true;
        }
      } else if (w == ".ptr") {
        take();
        seen_ptr = true;
        proto.ptr = true;
      } else if (w == ".v2" || w == ".v4" || w == ".v8") {
        take();
        vec = w[2] - '0';
      } else if (seen_ptr && space_word(w)) {
        take();  // pointee state space of a .ptr parameter
      } else if (w == ".attribute") {
        take();
        expect('(', ".attribute");
        int depth = 1;
        while (depth > 0) {
          if (peek().kind == Tok::End) fail_here("unterminated .attribute");
          if (peek().is('(')) ++depth;
          if (peek().is(')')) --depth;
          take();
        }
      } else if (w == ".texref" || w == ".samplerref" || w == ".surfref") {
        take();
        proto.type = Type::B64;
      } else if (auto ty = parse_type(w.substr(1))) {
        take();
        proto.type = *ty;
      } else {
        fail(t, "unknown attribute in a variable declaration");
      }
    }
    if (proto.type == Type::None) fail_here("expected a type in a variable declaration");
    uint32_t elem = std::max<uint32_t>(1, type_bits(proto.type) / 8) * vec;
    if (!align_set) proto.align = elem;
    proto.size = elem;  // scalar size; arrays multiply below
  }
  Symbol s = proto;
  s.linkage = linkage;
  s.is_extern = linkage == Linkage::Extern;
  s.function = function;
  s.role = role;
  s.loc = loc;
  const Token name_tok = peek();
  if (name_tok.kind != Tok::Ident) fail_here("expected a variable name");
  take();
  s.name = std::string(name_tok.text);
  s.loc = {name_tok.line, name_tok.col};
  const uint64_t elem_size = s.size;
  uint64_t count = 1;
  while (accept('[')) {
    if (accept(']')) {
      s.unsized = true;
      continue;
    }
    const Token at = peek();
    int64_t n = parse_int_expr("array size");
    if (n < 0) fail(at, "negative array size");
    if (n != 0 && count > kMaxVariableBytes / elem_size / static_cast<uint64_t>(n))
      fail(at, fmt::format("the array is larger than {} bytes", kMaxVariableBytes));
    count *= static_cast<uint64_t>(n);
    expect(']', "array size");
  }
  if ((space == Space::Shared || space == Space::Local || space == Space::Param) && elem_size * count > UINT32_MAX)
    fail(name_tok, fmt::format("a .{} variable of {} bytes (at most 4 GiB)", space_name(space), elem_size * count));
  s.size = s.unsized ? (count > 1 ? elem_size * count : 0) : elem_size * count;
  if (s.unsized && count == 1) s.size = 0;
  if (peek().is('<')) fail_here("a parameterized name <N> is only allowed in .reg declarations");
  const uint32_t idx = static_cast<uint32_t>(m_.symbols.size());
  m_.symbols.push_back(std::move(s));
  if (accept('=')) parse_initializer(m_.symbols[idx]);
  if (function < 0 && !in_param_list) {
    // A second declaration of the same module symbol (e.g. .extern then definition) aliases it.
    auto [it, inserted] = module_syms_.emplace(m_.symbols[idx].name, idx);
    if (!inserted) {
      Symbol& prev = m_.symbols[it->second];
      if (prev.is_extern && !m_.symbols[idx].is_extern) it->second = idx;
    }
  } else if (function >= 0 && !in_param_list) {
    scopes_.back().syms[m_.symbols[idx].name] = idx;
  }
  if (in_param_list) {
    if (more_names) *more_names = false;
    return idx;
  }
  if (accept(',')) {
    *more_names = true;
  } else {
    expect(';', "variable declaration");
    *more_names = false;
  }
  return idx;
}

void Parser::parse_initializer(Symbol& s) {
  // Scalars, nested brace lists (flattened row-major), symbol addresses (sym, sym+off,
  // generic(sym)) for pointer-sized elements (PTX ISA §5.4.4).
  const int esize = std::max(1, type_bits(s.type) / 8);
  if (s.size == 0 && s.unsized) fail_here("an unsized array cannot have an initializer");
  if (s.size > kMaxInitializedBytes)
    fail_here(fmt::format("'{}' has {} bytes; a variable with an initializer may have at most {}", s.name, s.size,
                          kMaxInitializedBytes));
  s.init.assign(s.size, 0);
  uint64_t off = 0;
  auto element = [&]() {
    const Token t = peek();
    if (off + esize > s.size) fail(t, fmt::format("too many initializer elements for '{}'", s.name));
    bool generic = false;
    if (t.kind == Tok::Ident && t.text == "generic" && peek(1).is('(')) {
      take();
      take();
      generic = true;
    }
    if (peek().kind == Tok::Ident) {
      Token nt = take();
      int64_t add = 0;
      if (peek().is('+') || peek().is('-')) {
        bool neg = take().is('-');
        add = parse_int_expr("address initializer offset");
        if (neg) add = -add;
      }
      if (generic) expect(')', "generic(...)");
      Reloc r{off, 0, add, generic, false};
      if (esize != 8 && esize != 4) fail(nt, "an address initializer needs a 32- or 64-bit element type");
      // Resolved when the whole module is parsed (the symbol may be declared later).
      pending_relocs_.push_back({static_cast<uint32_t>(&s - m_.symbols.data()), s.relocs.size(),
                                 std::string(nt.text), {nt.line, nt.col}});
      s.relocs.push_back(r);
      off += esize;
      return;
    }
    ConstValue v = parse_const();
    uint64_t bits;
    if (is_float(s.type) && s.type != Type::F16 && s.type != Type::BF16) {
      double d = v.as_double();
      if (v.kind == ImmKind::Int) d = static_cast<double>(v.bits);
      if (esize == 4) {
        if (v.kind == ImmKind::F32) {
          bits = static_cast<uint64_t>(v.bits);
        } else {
          float f = static_cast<float>(d);
          uint32_t b;
          std::memcpy(&b, &f, 4);
          bits = b;
        }
      } else if (v.kind == ImmKind::F64) {
        bits = static_cast<uint64_t>(v.bits);
      } else {
        std::memcpy(&bits, &d, 8);
      }
    } else {
      if (v.kind != ImmKind::Int && esize != (v.kind == ImmKind::F32 ? 4 : 8))
        fail(t, "a float literal initializes an integer element of a different size");
      bits = static_cast<uint64_t>(v.bits);
    }
    put_le(s.init, off, bits, esize);
    off += esize;
  };
  std::function<void()> list = [&]() {
    const Nest nest(*this, peek());
    if (accept('{')) {
      if (!peek().is('}')) {
        do {
          list();
        } while (accept(','));
      }
      expect('}', "initializer list");
    } else {
      element();
    }
  };
  list();
}

void Parser::parse_perf_directives(Function& f) {
  for (;;) {
    const Token& t = peek();
    if (t.kind != Tok::DotWord) return;
    std::string_view w = t.text;
    auto dims = [&](std::array<uint32_t, 3>& d) {
      take();
      d = {1, 1, 1};
      for (int i = 0; i < 3; ++i) {
        d[i] = static_cast<uint32_t>(parse_int_expr(std::string(w)));
        if (!accept(',')) break;
      }
    };
    if (w == ".maxntid") dims(f.perf.maxntid);
    else if (w == ".reqntid") dims(f.perf.reqntid);
    else if (w == ".reqnctapercluster") dims(f.perf.reqnctapercluster);
    else if (w == ".minnctapersm") { take(); f.perf.minnctapersm = static_cast<uint32_t>(parse_int_expr(".minnctapersm")); }
    else if (w == ".maxnctapersm") { take(); parse_int_expr(".maxnctapersm"); }
    else if (w == ".maxnreg") { take(); f.perf.maxnreg = static_cast<uint32_t>(parse_int_expr(".maxnreg")); }
    else if (w == ".maxclusterrank") { take(); f.perf.maxclusterrank = static_cast<uint32_t>(parse_int_expr(".maxclusterrank")); }
    else if (w == ".explicitcluster") { take(); f.perf.explicitcluster = true; }
    else if (w == ".noreturn") { take(); f.perf.noreturn = true; }
    else if (w == ".blocksareclusters") { take(); }
    else if (w == ".abi_preserve" || w == ".abi_preserve_control") { take(); parse_int_expr(std::string(w)); }
    else if (w == ".pragma") {
      take();
      if (peek().kind != Tok::String) fail_here("expected a string after .pragma");
      std::string_view s = take().text;
      f.pragmas.emplace_back(s.substr(1, s.size() - 2));
      expect(';', ".pragma");
    } else return;
  }
}

void Parser::parse_function(Linkage linkage, bool entry, SourceLoc loc) {
  // .entry name (params) perf {body} | ;
  // .func {(retparams)} name {(params)} perf {body} | ;
  Function f;
  f.is_entry = entry;
  f.linkage = linkage;
  f.loc = loc;
  const uint32_t fidx_new = static_cast<uint32_t>(m_.functions.size());
  auto param_list = [&](std::vector<uint32_t>& out, ParamRole role, uint32_t fidx) {
    expect('(', "parameter list");
    if (!accept(')')) {
      do {
        const Token t = peek();
        if (t.kind == Tok::DotWord && t.text == ".reg")
          fail(t, "register parameters (.reg) are not supported; nvcc uses .param");
        if (!(t.kind == Tok::DotWord && t.text == ".param")) fail(t, "expected .param in a parameter list");
        take();
        out.push_back(parse_var(Linkage::None, Space::Param, static_cast<int32_t>(fidx), role,
                                true, {t.line, t.col}, nullptr));
      } while (accept(','));
      expect(')', "parameter list");
    }
  };
  if (!entry && peek().is('(')) param_list(f.retvals, ParamRole::FuncRetval, fidx_new);
  const Token name = peek();
  if (name.kind != Tok::Ident) fail_here(entry ? "expected a kernel name after .entry" : "expected a function name after .func");
  take();
  f.name = std::string(name.text);
  if (peek().is('(')) param_list(f.params, entry ? ParamRole::KernelParam : ParamRole::FuncParam, fidx_new);
  parse_perf_directives(f);
  // A definition after a prototype replaces the prototype in place (call operands keep their
  // function index).
  uint32_t fidx = fidx_new;
  for (size_t i = 0; i < m_.functions.size(); ++i) {
    if (m_.functions[i].name == f.name && !m_.functions[i].has_body) {
      fidx = static_cast<uint32_t>(i);
      for (uint32_t s : f.params) m_.symbols[s].function = static_cast<int32_t>(fidx);
      for (uint32_t s : f.retvals) m_.symbols[s].function = static_cast<int32_t>(fidx);
      break;
    }
  }
  if (accept(';')) {
    if (fidx == fidx_new) m_.functions.push_back(std::move(f));
    return;
  }
  if (!peek().is('{')) fail_here("expected '{' or ';' after the function header");
  f.has_body = true;
  if (fidx == fidx_new) m_.functions.push_back(std::move(f));
  else m_.functions[fidx] = std::move(f);
  parse_body(m_.functions[fidx], fidx);
}

void Parser::parse_reg_decl(Function& f) {
  // .reg {.vN} .type name{<N>} {, name{<N>}} ;   (PTX ISA §5.1.1, §4.4 "parameterized names")
  take();  // .reg
  Type type = Type::None;
  while (peek().kind == Tok::DotWord) {
    Token t = take();
    if (t.text == ".v2" || t.text == ".v4" || t.text == ".v8")
      fail(t, "vector registers are not supported");
    auto ty = parse_type(t.text.substr(1));
    if (!ty) fail(t, "unknown register type");
    type = *ty;
  }
  if (type == Type::None) fail_here("expected a register type after .reg");
  do {
    const Token name = peek();
    if (name.kind != Tok::Ident) fail_here("expected a register name");
    take();
    if (accept('<')) {
      int64_t n = parse_int_expr("register count");
      expect('>', "parameterized register name");
      if (n < 0 || static_cast<uint64_t>(n) > kMaxRegistersPerFunction - f.regs.size())
        fail(name, fmt::format("register count {} out of range (a function may declare at most {} registers)", n,
                               kMaxRegistersPerFunction));
      for (int64_t i = 0; i < n; ++i) {
        std::string rn = std::string(name.text) + std::to_string(i);
        scopes_.back().regs[rn] = static_cast<RegId>(f.regs.size());
        f.regs.push_back({std::move(rn), type});
      }
    } else {
      if (f.regs.size() >= kMaxRegistersPerFunction)
        fail(name, fmt::format("too many registers (a function may declare at most {})", kMaxRegistersPerFunction));
      scopes_.back().regs[std::string(name.text)] = static_cast<RegId>(f.regs.size());
      f.regs.push_back({std::string(name.text), type});
    }
  } while (accept(','));
  expect(';', ".reg declaration");
}

Prototype Parser::parse_prototype_params() {
  // label: .callprototype {(.param ... _)} _ {(.param ... _, ...)} ;
  Prototype p;
  auto list = [&](std::vector<Symbol>& out) {
    expect('(', ".callprototype");
    if (!accept(')')) {
      do {
        if (!accept_word(".param")) fail_here("expected .param in a .callprototype");
        uint32_t idx = parse_var(Linkage::None, Space::Param, -2, ParamRole::FuncParam, true, {}, nullptr);
        out.push_back(m_.symbols[idx]);
        m_.symbols.pop_back();
      } while (accept(','));
      expect(')', ".callprototype");
    }
  };
  if (peek().is('(')) list(p.retvals);
  const Token u = peek();
  if (u.kind != Tok::Ident || u.text != "_") fail_here("expected '_' in a .callprototype");
  take();
  if (peek().is('(')) list(p.params);
  while (peek().kind == Tok::DotWord && peek().text == ".noreturn") take();
  expect(';', ".callprototype");
  return p;
}

void Parser::parse_body(Function& f, uint32_t fidx) {
  (void)f;
  take();  // {
  scopes_.clear();
  scopes_.emplace_back();
  cur_loc_ = CudaLoc{};
  loc_at_.clear();
  // Parameters are visible in the body by name.
  for (uint32_t s : f.params) scopes_.back().syms[m_.symbols[s].name] = s;
  for (uint32_t s : f.retvals) scopes_.back().syms[m_.symbols[s].name] = s;
  scopes_.emplace_back();
  while (scopes_.size() > 1) {
    Function& fn = m_.functions[fidx];  // stable: no function is added while parsing a body
    parse_statement(fn, fidx);
  }
  // Names still unresolved at the function scope: .branchtargets / .callprototype names.
  Function& fn = m_.functions[fidx];
  for (const PendingName& p : scopes_.back().pending) {
    auto where = fmt::format("{}:{}:{}: error: ", source_name_, p.loc.line, p.loc.col);
    if (p.instr == kNoReg) throw ParseFail(where + fmt::format("undeclared label in .branchtargets, at '{}'", p.name));
    Operand* op = &fn.instrs[p.instr].ops[p.path[0]];
    for (size_t i = 1; i < p.path.size(); ++i) op = &op->elems[p.path[i]];
    bool found = false;
    for (size_t i = 0; i < fn.branch_tables.size() && !found; ++i) {
      if (fn.branch_tables[i].name == p.name) {
        op->kind = OperandKind::BranchTable;
        op->index = static_cast<uint32_t>(i);
        found = true;
      }
    }
    for (size_t i = 0; i < fn.prototypes.size() && !found; ++i) {
      if (fn.prototypes[i].name == p.name) {
        op->kind = OperandKind::Prototype;
        op->index = static_cast<uint32_t>(i);
        found = true;
      }
    }
    if (!found) throw ParseFail(where + fmt::format("undeclared label or identifier, at '{}'", p.name));
  }
}

void Parser::resolve_pending(Function& f, const PendingName& p, uint32_t target) {
  if (p.instr == kNoReg) {
    f.branch_tables[p.path[0]].targets[p.path[1]] = target;
    return;
  }
  Operand* op = &f.instrs[p.instr].ops[p.path[0]];
  for (size_t i = 1; i < p.path.size(); ++i) op = &op->elems[p.path[i]];
  op->kind = OperandKind::Label;
  op->index = target;
}

// Leaving a scope: references to labels of this scope are resolved, the rest move outward.
void Parser::close_scope(Function& f) {
  ScopeFrame fr = std::move(scopes_.back());
  scopes_.pop_back();
  for (PendingName& p : fr.pending) {
    auto it = fr.labels.find(p.name);
    if (it != fr.labels.end()) resolve_pending(f, p, it->second);
    else scopes_.back().pending.push_back(std::move(p));
  }
}

void Parser::parse_statement(Function& f, uint32_t fidx) {
  const Token t = peek();
  if (t.kind == Tok::End) fail(t, fmt::format("unexpected end of file in the body of '{}'", f.name));
  if (t.is('{')) {
    take();
    scopes_.emplace_back();
    return;
  }
  if (t.is('}')) {
    take();
    close_scope(f);
    return;
  }
  if (t.kind == Tok::DotWord) {
    if (t.text == ".reg") return parse_reg_decl(f);
    if (t.text == ".loc") return parse_loc();
    if (t.text == ".pragma") {
      take();
      if (peek().kind != Tok::String) fail_here("expected a string after .pragma");
      std::string_view s = take().text;
      f.pragmas.emplace_back(s.substr(1, s.size() - 2));
      expect(';', ".pragma");
      return;
    }
    if (t.text == ".file") {  // tolerated inside bodies as at module scope
      take();
      uint32_t n = static_cast<uint32_t>(parse_int_expr(".file number"));
      if (peek().kind != Tok::String) fail_here("expected a file name string");
      std::string_view s = take().text;
      m_.files.emplace_back(n, std::string(s.substr(1, s.size() - 2)));
      while (accept(',')) parse_int_expr(".file timestamp/size");
      return;
    }
    if (auto sp = space_word(t.text)) {
      take();
      const ParamRole role = *sp == Space::Param ? ParamRole::CallSite : ParamRole::None;
      bool more = false;  // false: the first name of the declaration (its attributes follow)
      do {
        uint32_t idx = parse_var(Linkage::None, *sp, static_cast<int32_t>(fidx), role, false,
                                 {t.line, t.col}, &more);
        f.locals.push_back(idx);
      } while (more);
      return;
    }
    fail(t, "unknown directive in a function body");
  }
  if (t.is('@')) {
    take();
    bool neg = accept('!');
    const Token p = peek();
    if (p.kind != Tok::Ident) fail_here("expected a predicate register after '@'");
    take();
    RegId r = find_reg(p.text);
    if (r == kNoReg) fail(p, "undeclared predicate register");
    if (f.regs[r].type != Type::Pred) fail(p, "guard register is not a .pred");
    if (peek().kind != Tok::Ident) fail_here("expected an instruction after the guard");
    return parse_instruction(f, fidx, r, neg, {t.line, t.col});
  }
  if (t.kind == Tok::Ident) {
    if (peek(1).is(':')) {
      take();
      take();
      const std::string name(t.text);
      if (peek().kind == Tok::DotWord && peek().text == ".branchtargets") {
        take();
        BranchTable bt;
        bt.name = name;
        // Targets may be forward labels: keep names, resolved below via a pseudo-pending list.
        std::vector<Token> names;
        do {
          if (peek().kind != Tok::Ident) fail_here("expected a label in .branchtargets");
          names.push_back(take());
        } while (accept(','));
        expect(';', ".branchtargets");
        f.branch_tables.push_back(bt);
        // Resolve at the end of the body (labels may follow): stash as pending on a sentinel.
        for (const Token& n : names) {
          f.branch_tables.back().targets.push_back(0xffffffffu);
          scopes_.back().pending.push_back({kNoReg, {static_cast<int>(f.branch_tables.size() - 1),
                                                     static_cast<int>(f.branch_tables.back().targets.size() - 1)},
                                            std::string(n.text), {n.line, n.col}});
        }
        return;
      }
      if (peek().kind == Tok::DotWord && peek().text == ".callprototype") {
        take();
        Prototype p = parse_prototype_params();
        p.name = name;
        f.prototypes.push_back(std::move(p));
        return;
      }
      if (scopes_.back().labels.count(name)) fail(t, "label defined twice");
      scopes_.back().labels[name] = static_cast<uint32_t>(f.instrs.size());
      f.labels.emplace_back(name, static_cast<uint32_t>(f.instrs.size()));
      return;
    }
    return parse_instruction(f, fidx, kNoReg, false, {t.line, t.col});
  }
  fail(t, "expected an instruction, a declaration or a label");
}

}  // namespace detail

Expected<Module> parse(std::string_view text, std::string source_name) {
  try {
    detail::Parser p(text, std::move(source_name));
    return p.run();
  } catch (const detail::ParseFail& e) {
    return Error{e.what()};
  }
}

}  // namespace tcsim::isa::ptx
