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
#include "codegen/Emitter.h"
#include "codegen/Names.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"
#include "core/Fields.h"

namespace tessera::codegen {

namespace {

struct Blocking {
  int d = 0;
  int64_t k = 0, r = 0, n = 0, segment = 0, work_group = 0;
  std::vector<int64_t> tiles; // the in-plane dimensions, outermost first
  Boundary boundary;
  int64_t halo(int64_t level) const { return (k - level) * r; } // of level j's region
};

// C text of a position's boundary source along an extent (the position itself for wrap,
// whose levels are computed on the extended positions).
std::string source_of(const std::string& p, const std::string& extent, Boundary::Kind kind) {
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

// The grid position of an extended (wrap) or in-grid position.
std::string periodic(const std::string& p, const std::string& extent) {
  return cat("(", p, " < 0 ? ", p, " + ", extent, " : (", p, " >= ", extent, " ? ", p, " - ",
             extent, " : ", p, "))");
}

std::string outside(const std::string& p, const std::string& extent) {
  return cat("(", p, " < 0 || ", p, " >= ", extent, ")");
}

} // namespace

void Emitter::write_stream_steps(const Node& f, const std::vector<Operand>& args,
                                 const View& dest) {
  if (in_work_item() || wrg_depth_ > 0)
    user_error("StreamSteps launches its own work-groups: it must compute the program's result, "
               "not run inside a map");
  const StreamStepsFields fields = stream_steps_fields(f);
  Blocking b;
  b.d = fields.dims;
  b.k = fields.steps;
  b.r = fields.radius;
  b.segment = fields.segment;
  const int64_t phases = fields.phases;
  b.tiles = fields.tiles;
  const bool registers = fields.window == StreamWindow::Registers;
  b.n = 2 * b.r + 1;
  b.boundary = f.boundary;
  const Boundary::Kind kind = b.boundary.kind;
  const bool wrap = kind == Boundary::Wrap;
  const int planes = b.d - 1; // in-plane dimensions
  const Operand& grid = args.at(0);
  std::vector<ArithExpr> extent;
  const Type* t = &grid.type;
  for (int i = 0; i < b.d; ++i, t = &t->element())
    extent.push_back(t->length());
  const ScalarKind element = t->scalar_kind();
  if (element == ScalarKind::F64)
    uses_fp64_ = true;
  const std::string ctype = scalar_c_type(element);
  const std::string Z = printer_.arith(extent[0]);
  auto E = [&](int i) { return printer_.arith(extent[static_cast<std::size_t>(i + 1)]); };
  // The kernel's own names start with blk_ (reserved, codegen/Names.cpp): inputs keep theirs.
  const std::vector<std::string> letters =
      planes == 2 ? std::vector<std::string>{"y", "x"} : std::vector<std::string>{"x"};
  std::vector<std::string> names;
  for (const auto& l : letters)
    names.push_back("blk_" + l);
  auto src_name = [](const std::string& p) { return "blk_s" + p.substr(4); };
  auto wrapped_name = [](const std::string& p) { return "blk_w" + p.substr(4); };
  // The in-plane indices a work-item's current positions read their source values at: the
  // boundary-resolved blk_s* names, or on a periodic grid blk_w* declared here as the wrapped
  // positions.
  auto source_positions = [&] {
    std::vector<std::string> src;
    for (int i = 0; i < planes; ++i) {
      const std::string& p = names[static_cast<std::size_t>(i)];
      src.push_back(wrap ? wrapped_name(p) : src_name(p));
      if (wrap)
        line(cat("const int ", wrapped_name(p), " = ", periodic(p, E(i)), ";"));
    }
    return src;
  };
  // Buffer extents: the tile plus the input's halo kr.
  const int64_t kr = b.k * b.r;
  std::vector<int64_t> buffer;
  int64_t plane = 1, tile_points = 1;
  for (int64_t tile : b.tiles) {
    buffer.push_back(tile + 2 * kr);
    plane *= tile + 2 * kr;
    tile_points *= tile;
  }
  if (options_.local_size[1] > 1 || options_.local_size[2] > 1)
    user_error("StreamSteps runs one-dimensional work-groups: set the work-group size of "
               "dimension 0 only");
  b.work_group = options_.local_size[0] > 0
                     ? options_.local_size[0]
                     : stream_steps_work_group(b.tiles, fields.window, b.k * b.r);
  required_work_group_ = b.work_group;
  std::string constant;
  if (kind == Boundary::Constant)
    constant = ScalarValue::make(element, b.boundary.value.as_double()).to_string();

  // Launch: dimension 0 the work-items of the innermost tiles, then the outer tiles, then the
  // segments.
  auto tiles_along = [&](int i) {
    int64_t tile = b.tiles[static_cast<std::size_t>(i)];
    return (extent[static_cast<std::size_t>(i + 1)] + (tile - 1)) / tile;
  };
  launch_.dims = b.d;
  launch_.local = {b.work_group, 1, 1};
  launch_.global[0] = tiles_along(planes - 1) * b.work_group;
  if (planes == 2)
    launch_.global[1] = tiles_along(0);
  launch_.global[static_cast<std::size_t>(b.d - 1)] =
      b.segment ? (extent[0] + (b.segment - 1)) / b.segment : ArithExpr(1);

  line(cat("// ", b.k, " steps of radius ", b.r, " by 2.5-D blocking: tiles of ",
           planes == 2 ? cat(b.tiles[0], "x", b.tiles[1]) : cat(b.tiles[0]), " march along ",
           "dimension 0", b.segment ? cat(" in segments of ", b.segment) : "",
           registers ? "; per time level each work-item's column in registers, the centre "
                       "plane in local memory"
                     : "; 2r+1 planes per time level in local memory"));
  line("const int blk_lid = get_local_id(0);");
  for (int i = 0; i < planes; ++i) {
    int group = i == planes - 1 ? 0 : 1;
    const std::string& p = letters[static_cast<std::size_t>(i)];
    line(cat("const int blk_o_", p, " = get_group_id(", group, ") * ",
             b.tiles[static_cast<size_t>(i)], ";"));
    line(cat("const int blk_e_", p, " = min(blk_o_", p, " + ", b.tiles[static_cast<size_t>(i)],
             ", ", E(i), ");"));
  }
  if (b.segment) {
    line(cat("const int blk_z0 = get_group_id(", b.d - 1, ") * ", b.segment, ";"));
    line(cat("const int blk_z1 = min(blk_z0 + ", b.segment, ", ", Z, ");"));
  } else {
    line("const int blk_z0 = 0;");
    line(cat("const int blk_z1 = ", Z, ";"));
  }
  // Level j computes planes [lo_j, hi_j): its segment with a halo of (k-j)r, inside the grid
  // unless the grid is periodic.
  for (int64_t j = 0; j <= b.k; ++j) {
    int64_t h = b.halo(j);
    line(wrap ? cat("const int blk_lo", j, " = blk_z0 - ", h, ", blk_hi", j, " = blk_z1 + ", h, ";")
              : cat("const int blk_lo", j, " = max(blk_z0 - ", h, ", 0), blk_hi", j,
                    " = min(blk_z1 + ", h, ", ", Z, ");"));
  }
  // Local memory per level: 2r+1 planes, or the centre plane with registers, double-buffered
  // where both halves fit (one barrier per plane of the march instead of two).
  const int64_t element_bytes = element == ScalarKind::F64 ? 8 : 4;
  const bool halves = registers && stream_steps_double_buffered(b.k, plane, element_bytes,
                                                                options_.target.stream_local_bytes);
  const int64_t level_planes = registers ? (halves ? 2 : 1) : b.n;
  std::vector<std::string> level_names;
  for (int64_t j = 0; j < b.k; ++j) {
    level_names.push_back(fresh("blk_level"));
    local_decls_.push_back(
        cat("__local ", ctype, " ", level_names.back(), "[", level_planes * plane, "];"));
    local_bytes_ += level_planes * plane * element_bytes;
  }
  // Registers: a work-item owns the positions lid + i * work_group (i < owned) of level 0's
  // region (the buffer's plane) at every level, so that its columns stay its own. Per level and
  // owned position, a shift register of 2r+1 named private variables: every plane of the march
  // shifts it by one (v0 = v1, v1 = v2, ...) and the level writes its new plane into the last,
  // so that slot m holds plane s - jr - 2r + m: every slot is known when the kernel is compiled
  // and none is indexed at run time.
  const int64_t owned = (plane + b.work_group - 1) / b.work_group;
  const std::string reg_base = registers ? fresh("blk_reg") : "";
  auto reg = [&](int64_t j, int64_t i, int64_t slot) {
    return cat(reg_base, "_", j, "_", i, "_", slot);
  };
  // Level j's registers shifted by one plane (at every plane, whether the level computes it).
  auto shift = [&](int64_t j) {
    for (int64_t i = 0; i < owned; ++i) {
      std::string moves;
      for (int64_t m = 0; m + 1 < b.n; ++m)
        moves += cat(m ? " " : "", reg(j, i, m), " = ", reg(j, i, m + 1), ";");
      line(moves);
    }
  };
  for (int64_t j = 0; registers && j < b.k; ++j)
    for (int64_t i = 0; i < owned; ++i) {
      std::string names_ji;
      for (int64_t m = 0; m < b.n; ++m)
        names_ji += cat(m ? ", " : "", reg(j, i, m), " = 0");
      line(cat(ctype, " ", names_ji, ";"));
    }
  // The register of a run-time slot (only where a plane outside the grid reads its source).
  auto reg_select = [&](int64_t j, int64_t i, const std::string& slot) {
    std::string v = reg(j, i, b.n - 1);
    for (int64_t m = b.n - 2; m >= 0; --m)
      v = cat("(", slot, " == ", m, " ? ", reg(j, i, m), " : ", v, ")");
    return v;
  };
  auto window = std::make_shared<Memory>();
  window->name = fresh("win");
  window->space = AddressSpace::Private;
  window->element = element;
  Type window_type = Type::scalar(element);
  for (int i = 0; i < b.d; ++i)
    window_type = Type::array(window_type, b.n);
  const bool with_consts = args.size() > 1;
  // Step j (from 1) reads the constant inputs of group (j-1) % phases.
  const std::size_t per_phase = (args.size() - 1) / static_cast<std::size_t>(phases);
  auto const_arg = [&](int64_t j, std::size_t c) -> const Operand& {
    return args.at(1 + static_cast<std::size_t>((j - 1) % phases) * per_phase + c);
  };
  window->type = with_consts ? Type::array(window_type, 1) : window_type;
  int64_t window_size = b.d == 3 ? b.n * b.n * b.n : b.n * b.n;
  line(cat(ctype, " ", window->name, "[", window_size, "];"));

  // The sides of a region numbered with a halo of `numbered`, and their product.
  auto region = [&](int64_t numbered) {
    std::vector<int64_t> side;
    int64_t count = 1;
    for (int64_t tile : b.tiles) {
      side.push_back(tile + 2 * numbered);
      count *= tile + 2 * numbered;
    }
    return std::make_pair(side, count);
  };
  // Position q's coordinates (C names `at(d)`) in a region of `side`, declared; and the
  // condition that they lie in level j's region when numbered with a halo of `numbered`.
  auto declare_position = [&](const std::string& q, const std::vector<int64_t>& side,
                              int64_t numbered, const std::function<std::string(int)>& at) {
    for (int d = 0; d < planes; ++d) {
      std::string a = planes == 1 ? q : d == 0 ? cat(q, " / ", side[1]) : cat(q, " % ", side[1]);
      line(cat("const int ", at(d), " = blk_o_", letters[static_cast<std::size_t>(d)], " - ",
               numbered, " + ", a, ";"));
    }
  };
  auto in_level = [&](int64_t j, int64_t numbered, const std::function<std::string(int)>& at) {
    std::string cond;
    for (int d = 0; d < planes; ++d) {
      const std::string& l = letters[static_cast<std::size_t>(d)];
      cond += cat(cond.empty() ? "" : " && ", at(d), " < blk_e_", l, " + ", b.halo(j));
      if (numbered > b.halo(j))
        cond += cat(" && ", at(d), " >= blk_o_", l, " - ", b.halo(j));
    }
    return cond;
  };
  // Registers: a work-item's positions are the same on every plane, computed once: position i
  // (blk_p<i>_y, ..., and its sources blk_p<i>_sy, ...) and whether it is in level j's region
  // (blk_in<j>_<i>). Positions are numbered in level 0's region for every level.
  auto owned_at = [&](int64_t i, bool source) {
    return [=, &letters](int d) {
      return cat("blk_p", i, "_", source ? "s" : "", letters[static_cast<std::size_t>(d)]);
    };
  };
  if (registers) {
    auto [side, count] = region(kr);
    for (int64_t i = 0; i < owned; ++i) {
      line(cat("const int blk_p", i, " = blk_lid + ", i * b.work_group, ";"));
      declare_position(cat("blk_p", i), side, kr, owned_at(i, false));
      for (int d = 0; d < planes; ++d)
        line(cat("const int ", owned_at(i, true)(d), " = ",
                 source_of(owned_at(i, false)(d), E(d), kind), ";"));
      for (int64_t j = 0; j <= b.k; ++j)
        line(cat("const bool blk_in", j, "_", i, " = blk_p", i, " < ", count, " && ",
                 in_level(j, kr, owned_at(i, false)), ";"));
    }
  }
  // The positions of level j's region, one per work-item at a time: y, x (or x) and, inside,
  // their boundary sources sy, sx. `body` runs for each position of the region, with the
  // index of the work-item's owned position (registers) or -1.
  auto for_region = [&](int64_t j, const std::function<void(int64_t)>& body) {
    for (int64_t i = 0; registers && i < owned; ++i) {
      open(cat("if (blk_in", j, "_", i, ")"));
      for (int d = 0; d < planes; ++d) {
        const std::string& p = names[static_cast<std::size_t>(d)];
        line(cat("const int ", p, " = ", owned_at(i, false)(d), ", ", src_name(p), " = ",
                 owned_at(i, true)(d), ";"));
      }
      body(i);
      close();
    }
    if (registers)
      return;
    auto [side, count] = region(b.halo(j));
    auto at = [&](int d) { return names[static_cast<std::size_t>(d)]; };
    open(cat("for (int blk_q = blk_lid; blk_q < ", count, "; blk_q += ", b.work_group, ")"));
    declare_position("blk_q", side, b.halo(j), at);
    open(cat("if (", in_level(j, b.halo(j), at), ")"));
    for (int d = 0; d < planes; ++d) {
      const std::string& p = names[static_cast<std::size_t>(d)];
      line(cat("const int ", src_name(p), " = ", source_of(p, E(d), kind), ";"));
    }
    body(-1);
    close();
    close();
  };
  // The C value adjusted for a position outside the grid in the plane: the constant, or the
  // value negated once per dimension it lies outside.
  auto in_plane_boundary = [&](const std::string& v) {
    std::vector<std::string> out;
    for (int i = 0; i < planes; ++i)
      out.push_back(outside(names[static_cast<std::size_t>(i)], E(i)));
    if (kind == Boundary::Constant)
      return cat(planes == 2 ? cat("(", out[0], " || ", out[1], ")") : out[0], " ? ", constant,
                 " : ", v);
    if (kind == Boundary::Antisymmetric)
      return cat(planes == 2 ? cat("(", out[0], " != ", out[1], ")") : out[0], " ? -", v, " : ", v);
    return v;
  };
  // The local index of position (y, x) of a level's buffer.
  auto local_index = [&](const std::vector<std::string>& p) {
    if (planes == 1)
      return cat(p[0], " - blk_o_x + ", kr);
    return cat("(", p[0], " - blk_o_y + ", kr, ") * ", buffer[1], " + ", p[1], " - blk_o_x + ", kr);
  };
  // Registers: the index in a level's centre plane, in this plane parity's half if halved.
  auto centre_index = [&](const std::vector<std::string>& p) {
    return halves ? cat("blk_half + ", local_index(p)) : local_index(p);
  };
  auto grid_var = [&](const std::string& name, int dim) {
    return ArithExpr::var(name, 0, extent[static_cast<std::size_t>(dim)] - 1);
  };
  // The element of a d-dimensional view at (z, y, x).
  auto element_at = [&](View v, const std::string& z, const std::vector<std::string>& p) {
    v = index_view(v, grid_var(z, 0));
    for (int i = 0; i < planes; ++i)
      v = index_view(v, grid_var(p[static_cast<std::size_t>(i)], i + 1));
    return v;
  };

  // The window's index of a neighbourhood point (m along dimension 0, then dy, dx).
  auto window_slot = [&](int64_t m, const std::string& dy, const std::string& dx) {
    return planes == 2 ? cat(m * b.n * b.n, " + ", dy, " * ", b.n, " + ", dx)
                       : cat(m * b.n, " + ", dx);
  };
  // A read of plane z + m - r of a level, adjusted for a plane outside the grid.
  auto along_z = [&](int64_t m, const std::string& read) {
    if (kind == Boundary::Constant)
      return cat("blk_zo", m, " ? ", constant, " : ", read);
    if (kind == Boundary::Antisymmetric)
      return cat("blk_zo", m, " ? -", read, " : ", read);
    return read;
  };
  // Registers: off the centre plane a star reads only its column, the work-item's own
  // registers. Level j-1 holds at p the value at p's source, up to the in-plane boundary's
  // negation (self-inverse); a constant position's value is replaced after f anyway. Inside the
  // grid along z the slots are fixed; near its ends a plane outside reads its source's slot.
  // The centre itself (slot r: plane z, inside the grid along z) is the work-item's own
  // register too, which saves a local read per value.
  auto column_from_registers = [&](int64_t j, int64_t owned_i) {
    auto fill = [&](bool inside, bool centre) {
      for (int64_t m = 0; m < b.n; ++m) {
        if ((m == b.r) != centre)
          continue;
        std::string read =
            inside ? reg(j - 1, owned_i, m) : reg_select(j - 1, owned_i, cat("blk_zs", m));
        if (kind == Boundary::Antisymmetric)
          read = cat("(", in_plane_boundary(read), ")");
        if (!inside)
          read = along_z(m, read);
        line(cat(window->name, "[", window_slot(m, cat(b.r), cat(b.r)), "] = ", read, ";"));
      }
    };
    fill(true, true);
    if (wrap) {
      fill(true, false);
      return;
    }
    open("if (blk_zin)");
    fill(true, false);
    close();
    open("else");
    fill(false, false);
    close();
  };
  // Registers: the centre plane but the centre from level j-1's local plane, at fixed window
  // slots (f may read any point of it; the device compiler drops the loads of the points it
  // does not).
  auto centre_from_local = [&](const std::string& from) {
    for (int64_t dy = 0; dy < (planes == 2 ? b.n : 1); ++dy)
      for (int64_t dx = 0; dx < b.n; ++dx) {
        if (dx == b.r && (planes == 1 || dy == b.r))
          continue; // the centre: column_from_registers
        std::vector<std::string> at;
        if (planes == 2)
          at.push_back(cat(src_name(names[0]), " + ", dy - b.r));
        at.push_back(cat(src_name(names.back()), " + ", dx - b.r));
        line(cat(window->name, "[", window_slot(b.r, cat(dy), cat(dx)), "] = ", from, "[",
                 centre_index(at), "];"));
      }
  };
  // Whether level j (1..k) computes a plane at this step of the march.
  auto level_active = [&](int64_t j) {
    return cat("if (blk_s - ", j * b.r, " >= blk_lo", j, " && blk_s - ", j * b.r, " < blk_hi", j,
               ")");
  };
  // Registers: level j-1's plane z = s - jr, the centre of level j's neighbourhoods, into local
  // memory. It was computed r planes ago, so every level publishes before one barrier.
  auto publish_centre = [&](int64_t j) {
    const std::string& from = level_names[static_cast<std::size_t>(j - 1)];
    open(level_active(j));
    for_region(j - 1, [&](int64_t owned_i) {
      std::vector<std::string> pos(names.begin(), names.end());
      line(cat(from, "[", centre_index(pos), "] = ", reg(j - 1, owned_i, b.r), ";"));
    });
    close();
  };
  // Level j (1..k) computes plane z = s - jr from level j-1's planes z-r..z+r.
  auto march_level = [&](int64_t j) {
    const std::string& from = level_names[static_cast<std::size_t>(j - 1)];
    open(level_active(j));
    line(cat("const int blk_z = blk_s - ", j * b.r, ";"));
    // The slots of level j-1's planes z-r..z+r: their boundary source planes.
    for (int64_t m = 0; m < b.n; ++m) {
      std::string q = cat("(blk_z + ", m - b.r, ")");
      std::string source = wrap ? q : source_of(q, Z, kind);
      if (registers && !wrap) // the slot of the source plane
        line(cat("const int blk_zs", m, " = ", source, " - blk_z + ", b.r, ";"));
      else if (!registers)
        line(cat("const int blk_zs", m, " = (", source, " - blk_lo", j - 1, ") % ", b.n, ";"));
      if (kind == Boundary::Constant || kind == Boundary::Antisymmetric)
        line(cat("const bool blk_zo", m, " = ", outside(q, Z), ";"));
    }
    if (registers && !wrap)
      line(cat("const bool blk_zin = blk_z >= ", b.r, " && blk_z < ", Z, " - ", b.r, ";"));
    if (with_consts && wrap)
      line(cat("const int blk_zc = ", periodic("blk_z", Z), ";"));
    for_region(j, [&](int64_t owned_i) {
      // The neighbourhood of the source position from level j-1.
      if (registers) {
        column_from_registers(j, owned_i);
        centre_from_local(from);
      }
      for (int64_t m = 0; m < b.n && !registers; ++m) {
        std::vector<std::string> corner;
        for (int i = 0; i < planes; ++i)
          corner.push_back(cat(src_name(names[static_cast<std::size_t>(i)]), " - ", b.r, " + blk_d",
                               letters[static_cast<std::size_t>(i)]));
        std::string read =
            along_z(m, cat(from, "[blk_zs", m, " * ", plane, " + ", local_index(corner), "]"));
        if (planes == 2)
          line(cat("for (int blk_dy = 0; blk_dy < ", b.n, "; ++blk_dy)"));
        line(cat(planes == 2 ? "  " : "", "for (int blk_dx = 0; blk_dx < ", b.n, "; ++blk_dx)"));
        line(cat(planes == 2 ? "    " : "  ", window->name, "[", window_slot(m, "blk_dy", "blk_dx"),
                 "] = ", read, ";"));
      }
      // f of the neighbourhood (with the constant inputs at the source position).
      View arg = memory_view(window);
      if (with_consts) {
        std::vector<std::string> src = source_positions();
        std::vector<View> parts{arg};
        for (std::size_t c = 0; c < per_phase; ++c) {
          View row = index_view(const_arg(j, c).view, grid_var(wrap ? "blk_zc" : "blk_z", 0));
          for (int i = 0; i + 1 < planes; ++i)
            row = index_view(row, grid_var(src[static_cast<std::size_t>(i)], i + 1));
          parts.push_back(drop_view(row, grid_var(src.back(), planes)));
        }
        arg = index_view(zip_view(std::move(parts)), 0);
      }
      auto value = std::make_shared<Memory>();
      value->name = fresh("r");
      value->space = AddressSpace::Private;
      value->element = element;
      value->type = Type::scalar(element);
      value->is_scalar_var = true;
      pending_declarations_.insert(value->name);
      ++seq_depth_;
      Type arg_type = window_type;
      if (with_consts) {
        std::vector<Type> parts{window_type};
        for (std::size_t c = 0; c < per_phase; ++c)
          parts.push_back(const_arg(j, c).type.innermost());
        arg_type = Type::tuple(parts);
      }
      apply_write(f.children[0], {Operand{arg, arg_type}}, memory_view(value));
      --seq_depth_;
      std::string v = j < b.k ? in_plane_boundary(value->name) : value->name;
      std::vector<std::string> pos(names.begin(), names.end());
      if (j < b.k && registers)
        line(cat(reg(j, owned_i, b.n - 1), " = ", v, ";"));
      else if (j < b.k)
        line(cat(level_names[static_cast<std::size_t>(j)], "[(blk_z - blk_lo", j, ") % ", b.n,
                 " * ", plane, " + ", local_index(pos), "] = ", v, ";"));
      else
        line(cat(print(resolve(element_at(dest, "blk_z", pos), {})), " = ", v, ";"));
    });
    close();
    if (!registers && j < b.k)
      line("barrier(CLK_LOCAL_MEM_FENCE);");
  };
  // Input plane `z` (C text) at a work-item's positions of level 0's region, adjusted for the
  // in-plane boundary, stored by `store` (owned position, value).
  auto load_input_plane = [&](const std::string& z,
                              const std::function<void(int64_t, const std::string&)>& store) {
    line(cat("const int blk_zr = ", wrap ? periodic(z, Z) : z, ";"));
    for_region(0, [&](int64_t owned_i) {
      std::vector<std::string> src = source_positions();
      store(owned_i, in_plane_boundary(print(resolve(element_at(grid.view, "blk_zr", src), {}))));
    });
  };
  // Registers: input plane s+1 is loaded into blk_next<i> while plane s is computed, so that
  // the load's latency is hidden behind a whole plane of the march instead of stalling it.
  auto next = [](int64_t owned_i) { return cat("blk_next", owned_i); };
  auto prefetch = [&](const std::string& z, const std::string& condition) {
    open(cat("if (", condition, ")"));
    load_input_plane(z,
                     [&](int64_t i, const std::string& v) { line(cat(next(i), " = ", v, ";")); });
    close();
  };
  for (int64_t i = 0; registers && i < owned; ++i)
    line(cat(ctype, " ", next(i), " = 0;"));
  if (registers) // the first plane (always in the grid: blk_lo0 <= blk_z0 < blk_hi0)
    prefetch("blk_lo0", "blk_lo0 < blk_hi0");
  // One plane of the march: s loads input plane s and level j computes plane s - jr.
  open(cat("for (int blk_s = blk_lo0; blk_s < blk_z1 + ", kr, "; ++blk_s)"));
  {
    // Registers: every level's shift register moves by one plane.
    for (int64_t j = 0; registers && j < b.k; ++j)
      shift(j);
    if (halves)
      line(cat("const int blk_half = (blk_s & 1) * ", plane, ";"));
    // Level 0: input plane s (prefetched with registers), and then the next one.
    open("if (blk_s >= blk_lo0 && blk_s < blk_hi0)");
    if (registers)
      for_region(0, [&](int64_t i) { line(cat(reg(0, i, b.n - 1), " = ", next(i), ";")); });
    else
      load_input_plane("blk_s", [&](int64_t, const std::string& v) {
        std::vector<std::string> pos(names.begin(), names.end());
        line(cat(level_names[0], "[(blk_s - blk_lo0) % ", b.n, " * ", plane, " + ",
                 local_index(pos), "] = ", v, ";"));
      });
    close();
    if (registers)
      prefetch("blk_s + 1", "blk_s + 1 >= blk_lo0 && blk_s + 1 < blk_hi0");
    // Registers: the levels' centre planes are published, one barrier, then every level
    // computes. The next plane publishes into the other half; with one half, not before every
    // work-item has read this plane's.
    for (int64_t j = 1; registers && j <= b.k; ++j)
      publish_centre(j);
    line("barrier(CLK_LOCAL_MEM_FENCE);");
    for (int64_t j = 1; j <= b.k; ++j)
      march_level(j);
    // The next plane's writes must wait for this plane's reads: with one half of the register
    // window, and in the local window with one step (its next input plane overwrites the slot
    // of plane s - 2r, which level 1 reads now; with more steps a level's barrier orders them).
    if (registers ? !halves : b.k == 1)
      line("barrier(CLK_LOCAL_MEM_FENCE);");
  }
  close();
}

} // namespace tessera::codegen
