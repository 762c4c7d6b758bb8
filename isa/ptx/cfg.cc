// Post-dominators by the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
// Dominance Algorithm", 2001) on the reverse CFG, with a virtual exit node that every ret, exit,
// trap and the end of the body flow into.
#include "isa/ptx/cfg.h"

#include <algorithm>

namespace tcsim::isa::ptx {

std::vector<uint32_t> immediate_post_dominators(const Function& f) {
  const uint32_t n = static_cast<uint32_t>(f.instrs.size());
  std::vector<uint32_t> result(n, kNoPostDom);
  if (n == 0) return result;
  // Leaders.
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  auto targets_of = [&](const Instr& in, std::vector<uint32_t>& out) {
    for (const Operand& o : in.ops) {
      if (o.kind == OperandKind::Label) out.push_back(o.index);
      if (o.kind == OperandKind::BranchTable)
        for (uint32_t t : f.branch_tables[o.index].targets) out.push_back(t);
    }
  };
  auto is_branch = [](Op op) { return op == Op::bra || op == Op::brx_idx; };
  auto is_exit = [](Op op) { return op == Op::ret || op == Op::exit || op == Op::trap || op == Op::brkpt; };
  for (uint32_t i = 0; i < n; ++i) {
    const Instr& in = f.instrs[i];
    if (is_branch(in.op) || is_exit(in.op)) {
      leader[i + 1] = true;
      std::vector<uint32_t> t;
      targets_of(in, t);
      for (uint32_t x : t) leader[std::min(x, n)] = true;
    }
  }
  std::vector<uint32_t> block_of(n + 1, 0), start;
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i]) start.push_back(i);
    block_of[i] = static_cast<uint32_t>(start.size() - 1);
  }
  const uint32_t nb = static_cast<uint32_t>(start.size());
  const uint32_t exit = nb;  // virtual exit node
  block_of[n] = exit;        // falling off the end = exit
  std::vector<std::vector<uint32_t>> succ(nb + 1), pred(nb + 1);
  for (uint32_t b = 0; b < nb; ++b) {
    const uint32_t last = (b + 1 < nb ? start[b + 1] : n) - 1;
    const Instr& in = f.instrs[last];
    std::vector<uint32_t> s;
    if (is_branch(in.op)) {
      std::vector<uint32_t> t;
      targets_of(in, t);
      for (uint32_t x : t) s.push_back(block_of[std::min(x, n)]);
      if (in.guard != kNoReg) s.push_back(block_of[last + 1]);
    } else if (is_exit(in.op)) {
      s.push_back(exit);
      if (in.guard != kNoReg) s.push_back(block_of[last + 1]);
    } else {
      s.push_back(block_of[last + 1]);
    }
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    for (uint32_t x : s) {
      succ[b].push_back(x);
      pred[x].push_back(b);
    }
  }
  // Reverse post-order of the reverse CFG (DFS from exit along predecessors).
  std::vector<uint32_t> order;
  std::vector<int> state(nb + 1, 0);
  std::vector<std::pair<uint32_t, size_t>> st{{exit, 0}};
  state[exit] = 1;
  while (!st.empty()) {
    auto& [v, k] = st.back();
    if (k < pred[v].size()) {
      const uint32_t w = pred[v][k++];
      if (!state[w]) {
        state[w] = 1;
        st.push_back({w, 0});
      }
    } else {
      order.push_back(v);
      st.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());  // exit first
  std::vector<int> rpo(nb + 1, -1);
  for (size_t i = 0; i < order.size(); ++i) rpo[order[i]] = static_cast<int>(i);
  const uint32_t undef = 0xffffffffu;
  std::vector<uint32_t> ipdom(nb + 1, undef);
  ipdom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (rpo[a] > rpo[b]) a = ipdom[a];
      while (rpo[b] > rpo[a]) b = ipdom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t v : order) {
      if (v == exit) continue;
      uint32_t nd = undef;
      for (uint32_t s : succ[v]) {  // successors in the CFG = predecessors in the reverse CFG
        if (ipdom[s] == undef) continue;
        nd = nd == undef ? s : intersect(s, nd);
      }
      if (nd != undef && ipdom[v] != nd) {
        ipdom[v] = nd;
        changed = true;
      }
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t p = ipdom[block_of[i]];
    if (p != undef && p != exit) result[i] = start[p];
  }
  return result;
}

}  // namespace tcsim::isa::ptx
