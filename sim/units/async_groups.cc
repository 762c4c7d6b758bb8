#include "sim/units/async_groups.h"

#include <algorithm>

namespace tcsim::sim {

AsyncGroups::Owner& AsyncGroups::at(uint32_t owner) {
  if (owners_.size() <= owner) owners_.resize(owner + 1);
  return owners_[owner];
}

uint64_t AsyncGroups::add(uint32_t owner, Cycles done, Cycles read_done) {
  Owner& o = at(owner);
  Group& g = o.open;
  if (done.is_never()) {
    ++g.outstanding;
  } else {
    g.done = max(g.done, done);
    g.read_done = max(g.read_done, read_done.is_never() ? done : read_done);
  }
  g.end = ++o.issued;
  return o.issued - 1;
}

void AsyncGroups::complete(uint32_t owner, uint64_t op, Cycles now) {
  Owner& o = at(owner);
  // The group holding `op`: the open one, or the committed group whose range contains it.
  Group* g = &o.open;
  for (Group& c : o.committed)
    if (op < c.end) {
      g = &c;
      break;
    }
  if (g->outstanding == 0) return;  // forgotten already (kMaxGroups)
  --g->outstanding;
  g->done = max(g->done, now);
  g->read_done = max(g->read_done, now);
}

void AsyncGroups::commit(uint32_t owner, Cycles now) {
  Owner& o = at(owner);
  o.open.end = o.issued;
  o.committed.push_back(o.open);
  o.open = Group{};
  while (o.committed.size() > kMaxGroups && complete_at(o.committed.front(), false, now)) {
    o.covered = std::max(o.covered, o.committed.front().end);
    o.committed.pop_front();
  }
}

AsyncGroups::Wait AsyncGroups::wait(uint32_t owner, uint32_t n, bool read, Cycles now) {
  Wait w;
  if (owner >= owners_.size()) return w;
  Owner& o = owners_[owner];
  w.covered = o.covered;
  const size_t k = o.committed.size();
  if (k <= n) return w;
  // Groups [0, k - n) must be complete.
  Cycles until(0);
  bool unknown = false;
  for (size_t i = 0; i + n < k; ++i) {
    const Group& g = o.committed[i];
    if (g.outstanding) unknown = true;
    until = max(until, read ? g.read_done : g.done);
  }
  if (unknown || until > now) {
    w.ready = false;
    w.until = unknown ? Cycles::never() : until;
    return w;
  }
  // .read: the writes of the covered groups may still be in flight; only a full wait forgets them.
  w.covered = std::max(o.covered, o.committed[k - n - 1].end);
  if (!read) {
    o.covered = w.covered;
    o.committed.erase(o.committed.begin(), o.committed.begin() + static_cast<std::ptrdiff_t>(k - n));
  }
  return w;
}

Cycles AsyncGroups::all_done(uint32_t owner) const {
  if (owner >= owners_.size()) return Cycles(0);
  const Owner& o = owners_[owner];
  if (o.open.outstanding) return Cycles::never();
  Cycles t = o.open.done;
  for (const Group& g : o.committed) {
    if (g.outstanding) return Cycles::never();
    t = max(t, g.done);
  }
  return t;
}

}  // namespace tcsim::sim
