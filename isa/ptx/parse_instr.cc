// PTX instructions: mnemonic + modifiers + types (longest-mnemonic match against opcodes.def),
// guard predicate, operands (registers, special registers, immediates, symbols, labels, vectors
// {..}, pairs a|b, addresses [base+off] and [tmap, {coords}], call parameter lists), checked
// against the row's operand signature (PTX ISA §4.x, §6 "Instruction Operands").
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "isa/ptx/parser_impl.h"

namespace tcsim::isa::ptx::detail {
namespace {

std::optional<SReg> find_sreg(std::string_view spelling) {
  for (int i = 0; i < static_cast<int>(SReg::Count_); ++i)
    if (sreg_info(static_cast<SReg>(i)).spelling == spelling) return static_cast<SReg>(i);
  return std::nullopt;
}

bool is_sreg_base(std::string_view name) {
  for (int i = 0; i < static_cast<int>(SReg::Count_); ++i) {
    std::string_view s = sreg_info(static_cast<SReg>(i)).spelling;
    if (s.size() > name.size() && s.substr(0, name.size()) == name && s[name.size()] == '.') return true;
  }
  return false;
}

std::string_view kind_name(OperandKind k) {
  switch (k) {
    case OperandKind::Reg: return "a register";
    case OperandKind::Imm: return "an immediate";
    case OperandKind::SReg: return "a special register";
    case OperandKind::Symbol: return "a variable name";
    case OperandKind::Func: return "a function name";
    case OperandKind::Label: return "a label";
    case OperandKind::BranchTable: return "a .branchtargets label";
    case OperandKind::Prototype: return "a .callprototype label";
    case OperandKind::Sink: return "'_'";
    case OperandKind::Vector: return "a vector {...}";
    case OperandKind::Pair: return "a pair a|b";
    case OperandKind::Address: return "a memory operand [...]";
    case OperandKind::ParamList: return "a parameter list (...)";
  }
  return "?";
}

}  // namespace

Operand Parser::resolve_name(Function& f, uint32_t instr_index, const std::vector<int>& path,
                             const Token& t) {
  Operand o;
  o.loc = {t.line, t.col};
  if (t.text == "_") {
    o.kind = OperandKind::Sink;
    return o;
  }
  if (RegId r = find_reg(t.text); r != kNoReg) {
    o.kind = OperandKind::Reg;
    o.reg = r;
    return o;
  }
  if (!t.text.empty() && t.text[0] == '%') {
    std::string spelling(t.text);
    if (is_sreg_base(t.text) && peek().kind == Tok::DotWord) spelling += std::string(take().text);
    if (auto s = find_sreg(spelling)) {
      o.kind = OperandKind::SReg;
      o.sreg = *s;
      return o;
    }
    if (spelling.rfind("%envreg", 0) == 0 || spelling.rfind("%pm", 0) == 0)
      fail(t, fmt::format("special register '{}' is not supported", spelling));
    fail(t, fmt::format("undeclared register '{}'", spelling));
  }
  if (int64_t s = find_scoped_symbol(t.text); s >= 0) {
    o.kind = OperandKind::Symbol;
    o.index = static_cast<uint32_t>(s);
    return o;
  }
  if (auto it = module_syms_.find(std::string(t.text)); it != module_syms_.end()) {
    o.kind = OperandKind::Symbol;
    o.index = it->second;
    return o;
  }
  if (int32_t fi = m_.function_index(t.text); fi >= 0) {
    o.kind = OperandKind::Func;
    o.index = static_cast<uint32_t>(fi);
    return o;
  }
  if (t.text == "WARP_SZ") {  // predefined identifier (PTX ISA §4.4.1): the warp size
    o.kind = OperandKind::Imm;
    o.imm = 32;
    return o;
  }
  // A label (possibly defined later), .branchtargets or .callprototype name.
  o.kind = OperandKind::Label;
  scopes_.back().pending.push_back({instr_index, path, std::string(t.text), {t.line, t.col}});
  (void)f;
  return o;
}

Operand Parser::parse_address(Function& f, uint32_t instr_index, std::vector<int> path) {
  // [reg], [reg+off], [reg-off], [sym], [sym+off], [imm], [tmap, {c0, c1, ...}]
  const Token open = take();  // [
  Operand a;
  a.kind = OperandKind::Address;
  a.loc = {open.line, open.col};
  Operand base;  // Sink = no base
  if (peek().kind == Tok::Ident) {
    Token nt = take();
    path.push_back(0);
    base = resolve_name(f, instr_index, path, nt);
    path.pop_back();
    if (base.kind == OperandKind::Label) fail(nt, "undeclared name in a memory operand");
    if (base.kind != OperandKind::Reg && base.kind != OperandKind::Symbol &&
        base.kind != OperandKind::SReg)
      fail(nt, "a memory operand's base must be a register or a variable");
    if (peek().is('+') || peek().is('-')) {
      bool neg = take().is('-');
      const Token ot = peek();
      ConstValue v = parse_const();
      if (v.kind != ImmKind::Int) fail(ot, "a memory operand offset must be an integer");
      a.imm = neg ? -v.bits : v.bits;
    }
  } else {
    const Token ot = peek();
    ConstValue v = parse_const();
    if (v.kind != ImmKind::Int) fail(ot, "an absolute address must be an integer");
    a.imm = v.bits;
  }
  a.elems.push_back(base);
  if (accept(',')) {
    // Tensor coordinates (cp.async.bulk.tensor, PTX ISA §9.7.9.25.5): [tmap, {c0, ...}]
    if (!peek().is('{')) fail_here("expected {coordinates} after ',' in a memory operand");
    path.push_back(1);
    a.elems.push_back(parse_operand(f, instr_index, path));
    path.pop_back();
  }
  expect(']', "memory operand");
  return a;
}

void Parser::parse_selector(Operand& o) {
  // .b0-.b3 / .h0-.h1 and the SIMD masks and permutations: .h10, .b3210, .b7654 (digits 0-7).
  const Token st = take();
  std::string_view s = st.text.substr(1);
  const bool ok = s.size() >= 2 && s.size() <= 6 && (s[0] == 'b' || s[0] == 'h') &&
                  std::all_of(s.begin() + 1, s.end(), [](char ch) { return ch >= '0' && ch <= '7'; });
  if (!ok) fail(st, "unknown register selector (expected .b0-.b3, .h0, .h1 or a SIMD mask)");
  o.sel_kind = s[0];
  o.sel_n = static_cast<uint8_t>(s.size() - 1);
  for (size_t i = 1; i < s.size(); ++i) o.sel_digits |= static_cast<uint16_t>((s[i] - '0') << (3 * (i - 1)));
}

Operand Parser::parse_operand(Function& f, uint32_t instr_index, std::vector<int> path) {
  const Token t = peek();
  const Nest nest(*this, t);
  Operand o;
  o.loc = {t.line, t.col};
  if (t.is('!')) {
    take();
    o = parse_operand(f, instr_index, path);
    if (o.kind != OperandKind::Reg || f.regs[o.reg].type != Type::Pred)
      fail(t, "'!' applies only to a predicate register");
    o.negate = true;
    return o;
  }
  if (t.is('-') && peek(1).kind == Tok::Ident) {
    take();
    o = parse_operand(f, instr_index, path);
    if (o.kind != OperandKind::Reg || f.regs[o.reg].type == Type::Pred)
      fail(t, "'-' before a name applies only to a non-predicate register");
    o.minus = true;
    return o;
  }
  if (t.is('[')) {
    o = parse_address(f, instr_index, path);
  } else if (t.is('{')) {
    take();
    o.kind = OperandKind::Vector;
    int i = 0;
    if (!peek().is('}')) {
      do {
        path.push_back(i++);
        o.elems.push_back(parse_operand(f, instr_index, path));
        path.pop_back();
      } while (accept(','));
    }
    expect('}', "vector operand");
  } else if (t.is('(')) {
    take();
    o.kind = OperandKind::ParamList;
    int i = 0;
    if (!peek().is(')')) {
      do {
        path.push_back(i++);
        o.elems.push_back(parse_operand(f, instr_index, path));
        path.pop_back();
      } while (accept(','));
    }
    expect(')', "parameter list");
  } else if (t.kind == Tok::Ident) {
    Token nt = take();
    o = resolve_name(f, instr_index, path, nt);
    if (o.kind == OperandKind::Reg && peek().kind == Tok::DotWord) parse_selector(o);
    if (o.kind == OperandKind::Symbol && (peek().is('+') || peek().is('-')) &&
        (peek(1).kind == Tok::Int || peek(1).is('('))) {
      bool neg = take().is('-');
      int64_t off = parse_int_expr("symbol offset");
      o.imm = neg ? -off : off;
    }
  } else if (t.kind == Tok::Int || t.kind == Tok::Float || t.is('-') || t.is('~') || t.is('(')) {
    ConstValue v = parse_const();
    o.kind = OperandKind::Imm;
    o.imm_kind = v.kind;
    o.imm_decimal = v.decimal;
    o.imm = v.bits;
  } else {
    fail(t, "expected an operand");
  }
  if (peek().is('|') && o.kind != OperandKind::Imm) {
    // d|p pairs: setp p|q, shfl.sync d|p, elect.sync _|P, lop3 d|p (PTX ISA §9.7.6.2, §9.7.9.6)
    take();
    Operand pair;
    pair.kind = OperandKind::Pair;
    pair.loc = o.loc;
    pair.elems.push_back(std::move(o));
    path.push_back(1);
    pair.elems.push_back(parse_operand(f, instr_index, path));
    return pair;
  }
  return o;
}

void Parser::classify_mods(Instr& in, const Token& at) {
  // Fill the typed fields; keep every modifier in `mods` too (families interpret the rest).
  const bool compare = in.op == Op::setp || in.op == Op::set || in.op == Op::setp_half ||
                       in.op == Op::set_half;
  for (Mod m : in.mods) {
    const ModInfo& mi = mod_info(m);
    auto once = [&](bool already, std::string_view what) {
      if (already) fail(at, fmt::format("two {} modifiers", what));
    };
    switch (mi.category) {
      case ModCategory::Rounding:
        once(in.rnd != Rounding::None, "rounding");
        in.rnd = static_cast<Rounding>(mi.value);
        break;
      case ModCategory::Cmp:
        once(in.cmp != CmpOp::None, "comparison");
        in.cmp = static_cast<CmpOp>(mi.value);
        break;
      case ModCategory::Space:
        if (in.nspaces == 2) fail(at, "more than two state-space modifiers");
        in.spaces[in.nspaces++] = static_cast<Space>(mi.value);
        break;
      case ModCategory::Sem:
        once(in.sem != Sem::None, "memory-semantics");
        in.sem = static_cast<Sem>(mi.value);
        break;
      case ModCategory::Scope:
        once(in.scope != Scope::None, "scope");
        in.scope = static_cast<Scope>(mi.value);
        break;
      case ModCategory::Vec:
        once(in.vec != 1, "vector");
        in.vec = mi.value;
        break;
      case ModCategory::Other:
        if (compare && (m == Mod::lo || m == Mod::hi)) {
          once(in.cmp != CmpOp::None, "comparison");
          in.cmp = m == Mod::lo ? CmpOp::LO : CmpOp::HI;
        }
        break;
    }
  }
}

std::string Parser::check_one_signature(const OpInfo& info, std::string_view sig, const Instr& in, Function& f) {
  std::vector<std::string_view> specs;
  size_t b = 0;
  while (b < sig.size()) {
    size_t e = sig.find(',', b);
    if (e == std::string_view::npos) e = sig.size();
    specs.push_back(sig.substr(b, e - b));
    b = e + 1;
  }
  auto is_pred = [&](const Operand& o) {
    return o.kind == OperandKind::Reg && f.regs[o.reg].type == Type::Pred;
  };
  auto value_like = [&](const Operand& o) {
    return o.kind == OperandKind::Reg || o.kind == OperandKind::Imm || o.kind == OperandKind::SReg ||
           o.kind == OperandKind::Symbol || o.kind == OperandKind::Func;
  };
  auto accepts = [&](char c, const Operand& o) -> bool {
    switch (c) {
      case 'd': return (o.kind == OperandKind::Reg && !o.negate) || o.kind == OperandKind::Sink;
      case 'p':
        return (is_pred(o) && !o.negate) || o.kind == OperandKind::Sink ||
               (o.kind == OperandKind::Pair && is_pred(o.elems[1]));
      case 'D':
        return (o.kind == OperandKind::Reg && !o.negate) || o.kind == OperandKind::Sink ||
               o.kind == OperandKind::Vector || o.kind == OperandKind::Pair;
      case 'a': return value_like(o) && !o.negate;
      case 'q': return value_like(o);
      case 'm': return o.kind == OperandKind::Address;
      case 'V': return value_like(o) || o.kind == OperandKind::Vector;
      case 'l': return o.kind == OperandKind::Label || o.kind == OperandKind::BranchTable;
      case 'f': return o.kind == OperandKind::Func || o.kind == OperandKind::Reg;
    }
    return false;
  };
  auto expect_desc = [](std::string_view letters) {
    std::string r;
    for (char c : letters) {
      std::string_view d;
      switch (c) {
        case 'd': d = "a register or _"; break;
        case 'p': d = "a predicate register"; break;
        case 'D': d = "a destination register, vector or pair"; break;
        case 'a': d = "a register, immediate or special register"; break;
        case 'q': d = "a value or (!)predicate"; break;
        case 'm': d = "a memory operand [...]"; break;
        case 'V': d = "a value or vector {...}"; break;
        case 'l': d = "a label"; break;
        case 'f': d = "a function or register"; break;
        default: d = "?";
      }
      r += fmt::format("{}{}", r.empty() ? "" : " or ", d);
    }
    return r;
  };
  // The message head, built only when the operands do not match (this runs for every instruction).
  auto what = [&] {
    std::string expected_list;
    for (std::string_view s : specs) {
      if (!expected_list.empty()) expected_list += ", ";
      expected_list += s;
    }
    return fmt::format("'{}' takes operands ({})", info.mnemonic, expected_list);
  };
  size_t i = 0;
  for (std::string_view spec : specs) {
    if (spec.empty()) break;
    if (spec.find('*') != std::string_view::npos) {
      // Check the explicit letters before the '*' and accept anything after.
      std::string_view letters = spec.substr(0, spec.find('*'));
      if (!letters.empty()) {
        if (i >= in.ops.size()) return fmt::format("{}: too few operands", what());
        bool ok = false;
        for (char c : letters) ok = ok || accepts(c, in.ops[i]);
        if (!ok)
          return fmt::format("{}: operand {} must be {}, not {}", what(), i + 1, expect_desc(letters),
                             kind_name(in.ops[i].kind));
      }
      return {};
    }
    const bool optional = spec.back() == '?';
    std::string_view letters = optional ? spec.substr(0, spec.size() - 1) : spec;
    if (i >= in.ops.size()) {
      if (optional) return {};
      return fmt::format("{}: too few operands", what());
    }
    bool ok = false;
    for (char c : letters) ok = ok || accepts(c, in.ops[i]);
    if (!ok) {
      if (in.ops[i].kind == OperandKind::Label && !optional)
        return fmt::format("{}: operand {} is an undeclared name", what(), i + 1);
      return fmt::format("{}: operand {} must be {}, not {}", what(), i + 1, expect_desc(letters),
                         kind_name(in.ops[i].kind));
    }
    ++i;
  }
  if (i < in.ops.size()) return fmt::format("{}: too many operands", what());
  return {};
}

void Parser::check_signature(const OpInfo& info, const Instr& in, const Token& at, Function& f) {
  std::string_view sig = info.signature;
  std::string first_error;
  for (;;) {
    size_t slash = sig.find('/');
    std::string err = check_one_signature(info, sig.substr(0, slash), in, f);
    if (err.empty()) return;
    if (first_error.empty()) first_error = err;
    if (slash == std::string_view::npos) break;
    sig = sig.substr(slash + 1);
  }
  if (info.signature.find('/') != std::string_view::npos)
    first_error = fmt::format("'{}' takes operands ({}): the operands match none of the forms",
                              info.mnemonic, info.signature);
  fail(at, first_error);
}

void Parser::parse_instruction(Function& f, uint32_t fidx, RegId guard, bool guard_neg, SourceLoc loc) {
  (void)fidx;
  const Token head = take();  // the first word of the mnemonic
  std::vector<Token> words{head};
  while (peek().kind == Tok::DotWord) words.push_back(take());
  // Components: "cp", "async", "bulk", ...
  auto comp = [&](size_t i) { return i == 0 ? words[0].text : words[i].text.substr(1); };
  // barrier{.cta}.sync / bar{.cta}.arrive: the optional .cta sits inside the mnemonic
  // (PTX ISA §9.7.13.1); drop it and keep it as a modifier.
  bool cta_in_mnemonic = false;
  if ((head.text == "barrier" || head.text == "bar") && words.size() > 2 && comp(1) == "cta") {
    words.erase(words.begin() + 1);
    cta_in_mnemonic = true;
  }
  // vote / shfl: ptxas also takes the mode before .sync (vote.ballot.sync.b32, shfl.bfly.sync.b32:
  // both assemble with CUDA 13.0's ptxas); read them in the ISA's order (§9.7.13.8 vote.sync,
  // §9.7.9.6 shfl.sync).
  if ((head.text == "vote" || head.text == "shfl") && words.size() > 2 && comp(1) != "sync") {
    for (size_t i = 2; i < words.size(); ++i)
      if (comp(i) == "sync") {
        const Token s = words[i];
        words.erase(words.begin() + static_cast<std::ptrdiff_t>(i));
        words.insert(words.begin() + 1, s);
        break;
      }
  }
  std::string mnemonic;
  size_t used = 0;
  {
    std::string cand;
    for (size_t i = 0; i < words.size(); ++i) {
      if (i) cand += '.';
      cand += comp(i);
      if (is_mnemonic(cand)) {
        mnemonic = cand;
        used = i + 1;
      }
    }
  }
  if (mnemonic.empty()) fail(head, fmt::format("unknown instruction '{}'", head.text));
  Instr in;
  in.loc = loc;
  in.cuda = cur_loc_;
  in.guard = guard;
  in.guard_negated = guard_neg;
  if (cta_in_mnemonic) in.mods.push_back(Mod::cta);
  for (size_t i = used; i < words.size(); ++i) {
    std::string_view c = comp(i);
    if (auto ty = parse_type(c)) {
      if (in.ntypes == in.types.size()) fail(words[i], "too many type suffixes");
      in.types[in.ntypes++] = *ty;
    } else if (auto m = parse_mod(c)) {
      in.mods.push_back(*m);
    } else {
      fail(words[i], fmt::format("unknown modifier '{}' for '{}'", words[i].text, mnemonic));
    }
  }
  // The row is chosen by the instruction type, which is the first type suffix except for `set`,
  // whose first type is the destination's and second the compared operands' (set.CmpOp.dtype.stype).
  const Type selector = mnemonic == "set" ? in.type(1) : in.type(0);
  const OpInfo* info = find_op(mnemonic, selector);
  if (!info) {
    std::string classes;
    for (const OpInfo* r : rows_with_mnemonic(mnemonic)) classes += fmt::format(" {}", r->ident);
    fail(head, fmt::format("'{}' has no form for type .{} (rows:{})", mnemonic, type_name(selector), classes));
  }
  in.op = info->op;
  classify_mods(in, head);
  const uint32_t index = static_cast<uint32_t>(f.instrs.size());
  if (!peek().is(';')) {
    int i = 0;
    do {
      const Token ot = peek();
      in.ops.push_back(parse_operand(f, index, {i++}));
      const Operand& o = in.ops.back();
      if ((o.minus || o.has_selector()) && info->family != Family::video)
        fail(ot, fmt::format("register selectors and '-' negation apply to video instructions only, not '{}'",
                             mnemonic));
    } while (accept(','));
  }
  if (!peek().is(';')) fail_here(fmt::format("expected ';' after the operands of '{}'", mnemonic));
  take();
  // Forward-label operands are validated once resolved; check the rest of the signature now with
  // labels accepted where the signature allows them.
  check_signature(*info, in, head, f);
  f.instrs.push_back(std::move(in));
}

}  // namespace tcsim::isa::ptx::detail
