// Internal to the PTX parser (parser.cc: module structure and declarations; parse_instr.cc:
// instructions and operands; const_expr.cc: constant expressions).
#pragma once
#include <deque>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "isa/ptx/lexer.h"

namespace tcsim::isa::ptx::detail {

struct ParseFail : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A reference to a name not yet defined when it was used (a forward label).
struct PendingName {
  uint32_t instr;         // instruction index in the function
  std::vector<int> path;  // operand path: ops[path[0]].elems[path[1]]...
  std::string name;
  SourceLoc loc;
};

// A parsed constant: integer, or a float literal (bit pattern of the given kind).
struct ConstValue {
  ImmKind kind = ImmKind::Int;
  bool decimal = false;  // written in decimal (1.5), not as 0f/0d bits
  int64_t bits = 0;
  double as_double() const;
};

// Limits on what the parser builds, so that hostile input gets one error line instead of a stack
// overflow or an allocation the host cannot make (docs/hostile_input.md):
// nesting of constant expressions, operands ({...}, (...), !, -, a|b) and initializer lists.
inline constexpr int kMaxNesting = 256;
// Registers one function may declare (a %r<N> declaration counts N): 2^20 virtual registers is
// ten times the most nvcc emits for the largest kernels in kernels/.
inline constexpr uint64_t kMaxRegistersPerFunction = uint64_t{1} << 20;
// A variable's size (bytes): .global/.const data lives in the simulated device memory.
inline constexpr uint64_t kMaxVariableBytes = uint64_t{1} << 40;
// A variable with an initializer: its bytes are built in host memory while parsing.
inline constexpr uint64_t kMaxInitializedBytes = uint64_t{256} << 20;

class Parser {
 public:
  Parser(std::string_view text, std::string source_name);
  Module run();

  // Tokens.
  const Token& peek(size_t k = 0);
  Token take();
  bool accept(char punct);
  bool accept_word(std::string_view dotword);
  void expect(char punct, std::string_view context);
  std::string_view expect_ident(std::string_view context);
  [[noreturn]] void fail(const Token& at, const std::string& what);
  [[noreturn]] void fail_here(const std::string& what) { fail(peek(), what); }

  // One level of nesting (constant expression, operand, initializer list) for as long as it lives.
  class Nest {
   public:
    Nest(Parser& p, const Token& at) : p_(p) {
      if (++p_.depth_ > kMaxNesting)
        p_.fail(at, fmt::format("nesting deeper than {} levels", kMaxNesting));
    }
    ~Nest() { --p_.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser& p_;
  };

  // Constant expressions (const_expr.cc).
  ConstValue parse_const();
  int64_t parse_int_expr(std::string_view context);

  // Declarations (parser.cc).
  void parse_module_item();
  void parse_function(Linkage linkage, bool entry, SourceLoc loc);
  uint32_t parse_var(Linkage linkage, Space space, int32_t function, ParamRole role,
                     bool in_param_list, SourceLoc loc, bool* more_names);
  void parse_initializer(Symbol& s);
  void parse_body(Function& f, uint32_t fidx);
  void parse_statement(Function& f, uint32_t fidx);
  void parse_reg_decl(Function& f);
  void parse_loc();
  void parse_perf_directives(Function& f);
  void skip_section();
  Prototype parse_prototype_params();

  // Instructions (parse_instr.cc).
  void parse_instruction(Function& f, uint32_t fidx, RegId guard, bool guard_neg, SourceLoc loc);
  Operand parse_operand(Function& f, uint32_t instr_index, std::vector<int> path);
  void parse_selector(Operand& o);
  Operand parse_address(Function& f, uint32_t instr_index, std::vector<int> path);
  Operand resolve_name(Function& f, uint32_t instr_index, const std::vector<int>& path,
                       const Token& name_tok);
  void check_signature(const OpInfo& info, const Instr& in, const Token& at, Function& f);
  std::string check_one_signature(const OpInfo& info, std::string_view sig, const Instr& in, Function& f);
  void classify_mods(Instr& in, const Token& at);

  // Scopes.
  // A `{ }` scope: registers, variables and labels declared in it (inline-asm blocks repeat labels
  // such as `WAIT:` in sibling scopes), and references to names not yet resolved.
  struct ScopeFrame {
    std::unordered_map<std::string, RegId> regs;
    std::unordered_map<std::string, uint32_t> syms;
    std::unordered_map<std::string, uint32_t> labels;
    std::vector<PendingName> pending;
  };
  void close_scope(Function& f);
  void resolve_pending(Function& f, const PendingName& p, uint32_t target);
  RegId find_reg(std::string_view name) const;
  int64_t find_scoped_symbol(std::string_view name) const;  // -1 if none

  Lexer lex_;
  int depth_ = 0;  // current nesting (Nest)
  std::deque<Token> la_;
  std::string source_name_;
  Module m_;
  std::vector<ScopeFrame> scopes_;
  std::unordered_map<std::string, uint32_t> module_syms_;
  CudaLoc cur_loc_;
  // The latest `.loc` of the current function at each CUDA position (file, line, col), for
  // resolving inlined_at chains (parse_loc); cleared per function body.
  std::unordered_map<uint64_t, CudaLoc> loc_at_;
  std::string pending_pragma_;
  Symbol var_proto_;
  struct PendingReloc {
    uint32_t symbol;
    size_t reloc;
    std::string name;
    SourceLoc loc;
  };
  std::vector<PendingReloc> pending_relocs_;  // initializer addresses of symbols declared later
};

}  // namespace tcsim::isa::ptx::detail
