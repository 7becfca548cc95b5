// MultigridLayout's halo bookkeeping: how deep each buffer is exact (per red-black colour) after
// the steps so far, and the exchanges a kernel's reads need before it (docs/distributed.md).
#include <algorithm>

#include "core/Error.h"
#include "distributed/HaloExchange.h"
#include "distributed/MultigridLayout.h"
#include "runtime/Session.h"

namespace tessera::distributed {

using multigrid::BufferId;
using multigrid::CompiledKernel;
using multigrid::DeviceMemory;
using multigrid::Read;
using multigrid::Schedule;

void MultigridLayout::exchange(Schedule& s, const Exchange& e) {
  const int before[2] = {s.exact_halo(e.buffer, 0), s.exact_halo(e.buffer, 1)};
  if (world_.size() > 1 && e.level < exchanges_.size())
    s.host(
        "halo exchange",
        [this, e](DeviceMemory& memory) {
          exchanges_[e.level]->run(cart_, session_->queue(), memory.buffer(e.buffer).handle(),
                                   e.colour);
          ++exchange_counts_[e.level];
        },
        {e.buffer}, /*ordered_by_queue=*/true);
  mark_exchanged(s, e, before[0], before[1]);
}

void MultigridLayout::mark_exchanged(Schedule& s, const Exchange& e, int before0,
                                     int before1) const {
  const int h = halo(e.level);
  s.set_exact_halo(e.buffer, e.colour == 1 ? before0 : h, e.colour == 0 ? before1 : h);
}

int MultigridLayout::exact_through(const Schedule& s, std::size_t l, const Read& read) const {
  const int known = s.exact_halo(read.buffer) - read.radius;
  switch (read.level) {
  case Read::Level::Same:
    return known;
  case Read::Level::Coarser: // fine depth j lies in coarse depth ceil(j / 2)
    return known < 0 ? known : 2 * known;
  case Read::Level::Finer: // coarse depth j covers fine depths 2j - 1 and 2j
    return known < 0 ? known : known / 2;
  }
  internal_error("unknown read level");
}

// Communication-avoiding: each kernel that reads r neighbours leaves its output exact r points
// less deep than its inputs, and an exchange is appended only where a read would not be exact
// on the block's own points. With halos of the operators' radius (1) that is one exchange
// before each kernel that reads neighbours of a buffer written since, none before restriction
// (pointwise on the rank's own children) and none after a fill (zeros are exact everywhere). A
// pointwise input (f) is exchanged only where it alone keeps the output from being exact
// deeper, which a halo of the read radius never lets happen: the other reads eat the halo.
// Depths are kept per red-black colour: a half-sweep leaves the other colour's points as exact as
// they were, so the exchange after it carries the colour it wrote alone (half the bytes).
void MultigridLayout::launch(Schedule& s, std::size_t l, const std::string& label,
                             std::shared_ptr<CompiledKernel> kernel, const std::vector<Read>& reads,
                             BufferId output) {
  launch_colours(s, l, label, std::move(kernel), reads, output, -1);
}

void MultigridLayout::launch_half_sweep(Schedule& s, std::size_t l, const std::string& label,
                                        std::shared_ptr<CompiledKernel> kernel,
                                        const std::vector<Read>& reads, BufferId output,
                                        int colour) {
  if (reads.empty() || reads[0].level != Read::Level::Same || (colour != 0 && colour != 1))
    internal_error(cat("the ", label, " half-sweep reads its own level's solution first"));
  launch_colours(s, l, label, std::move(kernel), reads, output, colour);
}

void MultigridLayout::launch_colours(Schedule& s, std::size_t l, const std::string& label,
                                     std::shared_ptr<CompiledKernel> kernel,
                                     const std::vector<Read>& reads, BufferId output,
                                     int half_sweep) {
  auto level_of = [l](const Read& r) {
    return r.level == Read::Level::Same ? l : r.level == Read::Level::Coarser ? l + 1 : l - 1;
  };
  auto pointwise = [](const Read& r) { return r.level == Read::Level::Same && r.radius == 0; };
  // How deep the written points are exact through read i: a half-sweep's solution is read at
  // the point itself (its colour) and around it (the other colour).
  auto through = [&](std::size_t i) {
    const Read& r = reads[i];
    if (half_sweep >= 0 && i == 0)
      return std::min(s.exact_halo(r.buffer, half_sweep),
                      s.exact_halo(r.buffer, 1 - half_sweep) - r.radius);
    return exact_through(s, l, r);
  };
  auto output_depth = [&](bool with_pointwise) {
    int depth = halo(l);
    for (std::size_t i = 0; i < reads.size(); ++i)
      if (with_pointwise || !pointwise(reads[i]))
        depth = std::min(depth, through(i));
    return depth;
  };
  // The exchanges the reads need, known exact from here on (appended below): of one colour
  // where the other is exact deep enough already.
  std::vector<Exchange> needed;
  auto need = [&](std::size_t level, BufferId buffer, int colour) {
    const bool one_colour =
        colour_exchanges_ && level < exchanges_.size() && exchanges_[level]->carries_colours();
    needed.push_back({level, buffer, one_colour ? colour : -1});
    mark_exchanged(s, needed.back(), s.exact_halo(buffer, 0), s.exact_halo(buffer, 1));
  };
  for (std::size_t i = 0; i < reads.size(); ++i) {
    const Read& r = reads[i];
    if (through(i) >= 0)
      continue;
    // Of a read of its own level or the finer one (the buffer's depths are its level's).
    int short_colours = 0, colour = -1;
    for (int c = 0; c < 2 && r.level != Read::Level::Coarser; ++c) {
      const int wanted = half_sweep >= 0 && i == 0 && c == half_sweep ? 0 : r.radius;
      if (s.exact_halo(r.buffer, c) < wanted) {
        ++short_colours;
        colour = c;
      }
    }
    need(level_of(r), r.buffer, short_colours == 1 ? colour : -1);
  }
  if (const int without = output_depth(false); output_depth(true) < without)
    for (std::size_t i = 0; i < reads.size(); ++i)
      if (pointwise(reads[i]) && through(i) < without)
        need(l, reads[i].buffer, -1);
  const int depth = output_depth(true);
  if (depth < 0) // a read wider than its level's halo: the block itself would be wrong
    internal_error(
        cat("the ", label, " kernel of level ", l, " reads further than the halos of its inputs"));
  // A half-sweep leaves the other colour's points as the solution holds them (in place, or
  // copied): as exact as they are now.
  const int kept = half_sweep >= 0 ? s.exact_halo(reads[0].buffer, 1 - half_sweep) : depth;
  auto record = [&] {
    if (half_sweep == 0)
      s.set_exact_halo(output, depth, kept);
    else if (half_sweep == 1)
      s.set_exact_halo(output, kept, depth);
    else
      s.set_exact_halo(output, depth);
  };
  if (needed.size() == 1 && launch_overlapped(s, l, label, kernel, reads, output, needed[0])) {
    record();
    return;
  }
  for (const Exchange& e : needed)
    exchange(s, e);
  Layout::launch(s, l, label, std::move(kernel), reads, output);
  record();
}

} // namespace tessera::distributed
