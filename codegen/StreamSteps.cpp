// The kernel of StreamSteps (primitives/StreamSteps.cpp): k steps of a stencil by 2.5-D
// blocking. A work-group owns a tile of the inner dimensions (y, x in 3-D; x in 2-D) and
// marches along the outermost dimension z over its segment [z0, z1):
//
//   for s = lo_0 .. z1 + kr - 1:
//     level 0 loads input plane s (its tile plus a halo of kr, boundary applied)
//     level j = 1..k computes plane z = s - jr from level j-1's planes z-r..z+r
//     level k writes the tile's plane z to the output
//
// Level j (0 <= j < k) keeps its last 2r+1 planes in a circular buffer in local memory, over
// the tile plus a halo of (k-j)r: the halo shrinks by r per level, so halo work is redundant
// only in the blocked dimensions (and over 2kr planes at a segment's ends).
//
// Every step keeps the unfused program's boundary: a level's value at a position p outside
// the grid is the value at p's boundary source position (clamp, mirror) or its negation
// (antisymmetric), or the constant. In the plane, such a position computes f over the
// neighbourhood of its source position, which lies in the tile's region; along z a plane
// outside the grid is read as its source plane, which is in the window. Wrap reads the input
// periodically and computes every level on the extended positions, which is exact for a
// periodic grid.
//
// The register window (star stencils only; the scheme of AN5D and EBISU) keeps, per level,
// each work-item's column in 2r+1 named private variables, a shift register moved by one at
// every plane, so that every slot is fixed at compile time; before level j computes plane z the
// owners copy level j-1's plane z into a local plane (one of two halves by the plane's parity
// where they fit), the in-plane neighbours come from there and the column and the centre from
// the work-item's own registers; input plane s+1 is prefetched while plane s is computed
// (docs/rewriting.md).
#include "codegen/StreamStepsWriter.h"

#include "codegen/ScalarC.h"
#include "core/Error.h"

namespace tessera::codegen {

// C text of a position's boundary source along an extent (the position itself for wrap,
// whose levels are computed on the extended positions).
std::string stream_source_of(const std::string& p, const std::string& extent, Boundary::Kind kind) {
  switch (kind) {
  case Boundary::Clamp:
  case Boundary::Constant:
    return cat("clamp(", p, ", 0, ", extent, " - 1)");
  case Boundary::Mirror:
  case Boundary::Antisymmetric:
    return cat("(", p, " < 0 ? -1 - ", p, " : (", p, " >= ", extent, " ? 2 * ", extent, " - 1 - ",
               p, " : ", p, "))");
  case Boundary::Wrap:
  case Boundary::Fixed: // never a StreamSteps' (make_stream_steps refuses it)
    return p;
  }
  return p;
}

std::string stream_source_name(const std::string& p) {
  return "blk_s" + p.substr(4);
}

// The grid position of an extended (wrap) or in-grid position.
std::string stream_periodic(const std::string& p, const std::string& extent) {
  return cat("(", p, " < 0 ? ", p, " + ", extent, " : (", p, " >= ", extent, " ? ", p, " - ",
             extent, " : ", p, "))");
}

std::string stream_outside(const std::string& p, const std::string& extent) {
  return cat("(", p, " < 0 || ", p, " >= ", extent, ")");
}

namespace {

std::string wrapped_name(const std::string& p) {
  return "blk_w" + p.substr(4);
}

} // namespace

void Emitter::write_stream_steps(const Node& f, const std::vector<Operand>& args,
                                 const View& dest) {
  if (in_work_item() || wrg_depth_ > 0)
    user_error("StreamSteps launches its own work-groups: it must compute the program's result, "
               "not run inside a map");
  StreamStepsWriter(*this, f, args, dest).write();
}

StreamStepsWriter::StreamStepsWriter(Emitter& emitter, const Node& f,
                                     const std::vector<Operand>& args, const View& dest)
    : e_(emitter), f_(f), args_(args), dest_(dest), fields_(stream_steps_fields(f)) {
  d_ = fields_.dims;
  k_ = fields_.steps;
  r_ = fields_.radius;
  segment_ = fields_.segment;
  tiles_ = fields_.tiles;
  registers_ = fields_.window == StreamWindow::Registers;
  n_ = 2 * r_ + 1;
  boundary_ = f.boundary;
  kind_ = boundary_.kind;
  wrap_ = kind_ == Boundary::Wrap;
  planes_ = d_ - 1;
  const Type* t = &args.at(0).type;
  for (int i = 0; i < d_; ++i, t = &t->element())
    extent_.push_back(t->length());
  element_ = t->scalar_kind();
  if (element_ == ScalarKind::F64)
    e_.uses_fp64_ = true;
  ctype_ = scalar_c_type(element_);
  Z_ = e_.printer_.arith(extent_[0]);
  // The kernel's own names start with blk_ (reserved, codegen/Names.cpp): inputs keep theirs.
  letters_ = planes_ == 2 ? std::vector<std::string>{"y", "x"} : std::vector<std::string>{"x"};
  for (const auto& l : letters_)
    names_.push_back("blk_" + l);
  // Buffer extents: the tile plus the input's halo kr.
  kr_ = k_ * r_;
  for (int64_t tile : tiles_) {
    buffer_.push_back(tile + 2 * kr_);
    plane_ *= tile + 2 * kr_;
  }
  with_consts_ = args.size() > 1;
  // Step j (from 1) reads the constant inputs of group (j-1) % phases.
  per_phase_ = (args.size() - 1) / static_cast<std::size_t>(fields_.phases);
}

void StreamStepsWriter::write() {
  choose_work_group();
  if (kind_ == Boundary::Constant)
    constant_ = ScalarValue::make(element_, boundary_.value.as_double()).to_string();
  set_launch();
  prologue();
  level_buffers();
  declare_registers();
  declare_window();
  owned_positions();
  march();
}

void StreamStepsWriter::choose_work_group() {
  const auto& local_size = e_.options_.local_size;
  if (local_size[1] > 1 || local_size[2] > 1)
    user_error("StreamSteps runs one-dimensional work-groups: set the work-group size of "
               "dimension 0 only");
  work_group_ =
      local_size[0] > 0 ? local_size[0] : stream_steps_work_group(tiles_, fields_.window, k_ * r_);
  e_.required_work_group_ = work_group_;
}

// Dimension 0 the work-items of the innermost tiles, then the outer tiles, then the segments.
void StreamStepsWriter::set_launch() {
  auto tiles_along = [&](int i) {
    int64_t tile = tiles_[static_cast<std::size_t>(i)];
    return (extent_[static_cast<std::size_t>(i + 1)] + (tile - 1)) / tile;
  };
  LaunchConfig& launch = e_.launch_;
  launch.dims = d_;
  launch.local = {work_group_, 1, 1};
  launch.global[0] = tiles_along(planes_ - 1) * work_group_;
  if (planes_ == 2)
    launch.global[1] = tiles_along(0);
  launch.global[static_cast<std::size_t>(d_ - 1)] =
      segment_ ? (extent_[0] + (segment_ - 1)) / segment_ : ArithExpr(1);
}

// The work-item, its tile's origin and end per in-plane dimension, its segment [z0, z1), and
// the planes [lo_j, hi_j) level j computes.
void StreamStepsWriter::prologue() {
  e_.line(cat("// ", k_, " steps of radius ", r_, " by 2.5-D blocking: tiles of ",
              planes_ == 2 ? cat(tiles_[0], "x", tiles_[1]) : cat(tiles_[0]), " march along ",
              "dimension 0", segment_ ? cat(" in segments of ", segment_) : "",
              registers_ ? "; per time level each work-item's column in registers, the centre "
                           "plane in local memory"
                         : "; 2r+1 planes per time level in local memory"));
  e_.line("const int blk_lid = get_local_id(0);");
  for (int i = 0; i < planes_; ++i) {
    int group = i == planes_ - 1 ? 0 : 1;
    const std::string& p = letters_[static_cast<std::size_t>(i)];
    e_.line(cat("const int blk_o_", p, " = get_group_id(", group, ") * ",
                tiles_[static_cast<size_t>(i)], ";"));
    e_.line(cat("const int blk_e_", p, " = min(blk_o_", p, " + ", tiles_[static_cast<size_t>(i)],
                ", ", E(i), ");"));
  }
  if (segment_) {
    e_.line(cat("const int blk_z0 = get_group_id(", d_ - 1, ") * ", segment_, ";"));
    e_.line(cat("const int blk_z1 = min(blk_z0 + ", segment_, ", ", Z_, ");"));
  } else {
    e_.line("const int blk_z0 = 0;");
    e_.line(cat("const int blk_z1 = ", Z_, ";"));
  }
  // Level j computes planes [lo_j, hi_j): its segment with a halo of (k-j)r, inside the grid
  // unless the grid is periodic.
  for (int64_t j = 0; j <= k_; ++j) {
    int64_t h = halo(j);
    e_.line(
        wrap_ ? cat("const int blk_lo", j, " = blk_z0 - ", h, ", blk_hi", j, " = blk_z1 + ", h, ";")
              : cat("const int blk_lo", j, " = max(blk_z0 - ", h, ", 0), blk_hi", j,
                    " = min(blk_z1 + ", h, ", ", Z_, ");"));
  }
}

// Local memory per level: 2r+1 planes, or the centre plane with registers, double-buffered
// where both halves fit (one barrier per plane of the march instead of two).
void StreamStepsWriter::level_buffers() {
  const int64_t element_bytes = element_ == ScalarKind::F64 ? 8 : 4;
  halves_ = registers_ && stream_steps_double_buffered(k_, plane_, element_bytes,
                                                       e_.options_.target.stream_local_bytes);
  const int64_t level_planes = registers_ ? (halves_ ? 2 : 1) : n_;
  for (int64_t j = 0; j < k_; ++j) {
    level_names_.push_back(e_.fresh("blk_level"));
    e_.local_decls_.push_back(
        cat("__local ", ctype_, " ", level_names_.back(), "[", level_planes * plane_, "];"));
    e_.local_bytes_ += level_planes * plane_ * element_bytes;
  }
}

// Registers: a work-item owns the positions lid + i * work_group (i < owned) of level 0's
// region (the buffer's plane) at every level, so that its columns stay its own. Per level and
// owned position, a shift register of 2r+1 named private variables: every plane of the march
// shifts it by one (v0 = v1, v1 = v2, ...) and the level writes its new plane into the last,
// so that slot m holds plane s - jr - 2r + m: every slot is known when the kernel is compiled
// and none is indexed at run time.
void StreamStepsWriter::declare_registers() {
  owned_ = (plane_ + work_group_ - 1) / work_group_;
  reg_base_ = registers_ ? e_.fresh("blk_reg") : "";
  for (int64_t j = 0; registers_ && j < k_; ++j)
    for (int64_t i = 0; i < owned_; ++i) {
      std::string names_ji;
      for (int64_t m = 0; m < n_; ++m)
        names_ji += cat(m ? ", " : "", reg(j, i, m), " = 0");
      e_.line(cat(ctype_, " ", names_ji, ";"));
    }
}

std::string StreamStepsWriter::reg(int64_t j, int64_t i, int64_t slot) const {
  return cat(reg_base_, "_", j, "_", i, "_", slot);
}

// The register of a run-time slot (only where a plane outside the grid reads its source).
std::string StreamStepsWriter::reg_select(int64_t j, int64_t i, const std::string& slot) const {
  std::string v = reg(j, i, n_ - 1);
  for (int64_t m = n_ - 2; m >= 0; --m)
    v = cat("(", slot, " == ", m, " ? ", reg(j, i, m), " : ", v, ")");
  return v;
}

// The neighbourhood f reads: (2r+1)^d values in private memory.
void StreamStepsWriter::declare_window() {
  window_ = std::make_shared<Memory>();
  window_->name = e_.fresh("win");
  window_->space = AddressSpace::Private;
  window_->element = element_;
  window_type_ = Type::scalar(element_);
  for (int i = 0; i < d_; ++i)
    window_type_ = Type::array(window_type_, n_);
  window_->type = with_consts_ ? Type::array(window_type_, 1) : window_type_;
  int64_t window_size = d_ == 3 ? n_ * n_ * n_ : n_ * n_;
  e_.line(cat(ctype_, " ", window_->name, "[", window_size, "];"));
}

// Registers: a work-item's positions are the same on every plane, computed once: position i
// (blk_p<i>_y, ..., and its sources blk_p<i>_sy, ...) and whether it is in level j's region
// (blk_in<j>_<i>). Positions are numbered in level 0's region for every level.
void StreamStepsWriter::owned_positions() {
  if (!registers_)
    return;
  auto [side, count] = region(kr_);
  for (int64_t i = 0; i < owned_; ++i) {
    e_.line(cat("const int blk_p", i, " = blk_lid + ", i * work_group_, ";"));
    declare_position(cat("blk_p", i), side, kr_, owned_at(i, false));
    for (int d = 0; d < planes_; ++d)
      e_.line(cat("const int ", owned_at(i, true)(d), " = ",
                  stream_source_of(owned_at(i, false)(d), E(d), kind_), ";"));
    for (int64_t j = 0; j <= k_; ++j)
      e_.line(cat("const bool blk_in", j, "_", i, " = blk_p", i, " < ", count, " && ",
                  in_level(j, kr_, owned_at(i, false)), ";"));
  }
}

// ---------------------------------------------------------------------------------------------
// Positions and indices

std::string StreamStepsWriter::E(int i) const {
  return e_.printer_.arith(extent_[static_cast<std::size_t>(i + 1)]);
}

// The in-plane indices a work-item's current positions read their source values at: the
// boundary-resolved blk_s* names, or on a periodic grid blk_w* declared here as the wrapped
// positions.
std::vector<std::string> StreamStepsWriter::source_positions() {
  std::vector<std::string> src;
  for (int i = 0; i < planes_; ++i) {
    const std::string& p = names_[static_cast<std::size_t>(i)];
    src.push_back(wrap_ ? wrapped_name(p) : stream_source_name(p));
    if (wrap_)
      e_.line(cat("const int ", wrapped_name(p), " = ", stream_periodic(p, E(i)), ";"));
  }
  return src;
}

// The sides of a region numbered with a halo of `numbered`, and their product.
std::pair<std::vector<int64_t>, int64_t> StreamStepsWriter::region(int64_t numbered) const {
  std::vector<int64_t> side;
  int64_t count = 1;
  for (int64_t tile : tiles_) {
    side.push_back(tile + 2 * numbered);
    count *= tile + 2 * numbered;
  }
  return {side, count};
}

// Position q's coordinates (C names `at(d)`) in a region of `side`, declared.
void StreamStepsWriter::declare_position(const std::string& q, const std::vector<int64_t>& side,
                                         int64_t numbered, const Coordinate& at) {
  for (int d = 0; d < planes_; ++d) {
    std::string a = planes_ == 1 ? q : d == 0 ? cat(q, " / ", side[1]) : cat(q, " % ", side[1]);
    e_.line(cat("const int ", at(d), " = blk_o_", letters_[static_cast<std::size_t>(d)], " - ",
                numbered, " + ", a, ";"));
  }
}

// The condition that position `at` lies in level j's region when numbered with a halo of
// `numbered`.
std::string StreamStepsWriter::in_level(int64_t j, int64_t numbered, const Coordinate& at) const {
  std::string cond;
  for (int d = 0; d < planes_; ++d) {
    const std::string& l = letters_[static_cast<std::size_t>(d)];
    cond += cat(cond.empty() ? "" : " && ", at(d), " < blk_e_", l, " + ", halo(j));
    if (numbered > halo(j))
      cond += cat(" && ", at(d), " >= blk_o_", l, " - ", halo(j));
  }
  return cond;
}

StreamStepsWriter::Coordinate StreamStepsWriter::owned_at(int64_t i, bool source) const {
  const std::vector<std::string>& letters = letters_;
  return [=, &letters](int d) {
    return cat("blk_p", i, "_", source ? "s" : "", letters[static_cast<std::size_t>(d)]);
  };
}

// The positions of level j's region, one per work-item at a time: y, x (or x) and, inside,
// their boundary sources sy, sx. `body` runs for each position of the region, with the
// index of the work-item's owned position (registers) or -1.
void StreamStepsWriter::for_region(int64_t j, const std::function<void(int64_t)>& body) {
  for (int64_t i = 0; registers_ && i < owned_; ++i) {
    e_.open(cat("if (blk_in", j, "_", i, ")"));
    for (int d = 0; d < planes_; ++d) {
      const std::string& p = names_[static_cast<std::size_t>(d)];
      e_.line(cat("const int ", p, " = ", owned_at(i, false)(d), ", ", stream_source_name(p), " = ",
                  owned_at(i, true)(d), ";"));
    }
    body(i);
    e_.close();
  }
  if (registers_)
    return;
  auto [side, count] = region(halo(j));
  auto at = [&](int d) { return names_[static_cast<std::size_t>(d)]; };
  e_.open(cat("for (int blk_q = blk_lid; blk_q < ", count, "; blk_q += ", work_group_, ")"));
  declare_position("blk_q", side, halo(j), at);
  e_.open(cat("if (", in_level(j, halo(j), at), ")"));
  for (int d = 0; d < planes_; ++d) {
    const std::string& p = names_[static_cast<std::size_t>(d)];
    e_.line(cat("const int ", stream_source_name(p), " = ", stream_source_of(p, E(d), kind_), ";"));
  }
  body(-1);
  e_.close();
  e_.close();
}

// The C value adjusted for a position outside the grid in the plane: the constant, or the
// value negated once per dimension it lies outside.
std::string StreamStepsWriter::in_plane_boundary(const std::string& v) const {
  std::vector<std::string> out;
  for (int i = 0; i < planes_; ++i)
    out.push_back(stream_outside(names_[static_cast<std::size_t>(i)], E(i)));
  if (kind_ == Boundary::Constant)
    return cat(planes_ == 2 ? cat("(", out[0], " || ", out[1], ")") : out[0], " ? ", constant_,
               " : ", v);
  if (kind_ == Boundary::Antisymmetric)
    return cat(planes_ == 2 ? cat("(", out[0], " != ", out[1], ")") : out[0], " ? -", v, " : ", v);
  return v;
}

// The local index of position (y, x) of a level's buffer.
std::string StreamStepsWriter::local_index(const std::vector<std::string>& p) const {
  if (planes_ == 1)
    return cat(p[0], " - blk_o_x + ", kr_);
  return cat("(", p[0], " - blk_o_y + ", kr_, ") * ", buffer_[1], " + ", p[1], " - blk_o_x + ",
             kr_);
}

// Registers: the index in a level's centre plane, in this plane parity's half if halved.
std::string StreamStepsWriter::centre_index(const std::vector<std::string>& p) const {
  return halves_ ? cat("blk_half + ", local_index(p)) : local_index(p);
}

ArithExpr StreamStepsWriter::grid_var(const std::string& name, int dim) const {
  return ArithExpr::var(name, 0, extent_[static_cast<std::size_t>(dim)] - 1);
}

// The element of a d-dimensional view at (z, y, x).
View StreamStepsWriter::element_at(View v, const std::string& z,
                                   const std::vector<std::string>& p) const {
  v = index_view(v, grid_var(z, 0));
  for (int i = 0; i < planes_; ++i)
    v = index_view(v, grid_var(p[static_cast<std::size_t>(i)], i + 1));
  return v;
}

// The window's index of a neighbourhood point (m along dimension 0, then dy, dx).
std::string StreamStepsWriter::window_slot(int64_t m, const std::string& dy,
                                           const std::string& dx) const {
  return planes_ == 2 ? cat(m * n_ * n_, " + ", dy, " * ", n_, " + ", dx) : cat(m * n_, " + ", dx);
}

// A read of plane z + m - r of a level, adjusted for a plane outside the grid.
std::string StreamStepsWriter::along_z(int64_t m, const std::string& read) const {
  if (kind_ == Boundary::Constant)
    return cat("blk_zo", m, " ? ", constant_, " : ", read);
  if (kind_ == Boundary::Antisymmetric)
    return cat("blk_zo", m, " ? -", read, " : ", read);
  return read;
}

} // namespace tessera::codegen
