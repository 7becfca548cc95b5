// The march of the StreamSteps kernel (codegen/StreamStepsWriter.h): one plane per iteration
// along dimension 0, level 0 loading the input plane, levels 1..k computing from the level
// below, the last one storing to the output; with the register window, the registers' rotation,
// the prefetch of the next input plane and the centre planes published to local memory.
#include "codegen/StreamStepsWriter.h"

#include "core/Error.h"

namespace tessera::codegen {

// One plane of the march: s loads input plane s and level j computes plane s - jr.
void StreamStepsWriter::march() {
  auto next = [](int64_t owned_i) { return cat("blk_next", owned_i); };
  for (int64_t i = 0; registers_ && i < owned_; ++i)
    e_.line(cat(ctype_, " ", next(i), " = 0;"));
  if (registers_) // the first plane (always in the grid: blk_lo0 <= blk_z0 < blk_hi0)
    prefetch("blk_lo0", "blk_lo0 < blk_hi0");
  e_.open(cat("for (int blk_s = blk_lo0; blk_s < blk_z1 + ", kr_, "; ++blk_s)"));
  // Registers: every level's shift register moves by one plane.
  for (int64_t j = 0; registers_ && j < k_; ++j)
    rotate_registers(j);
  if (halves_)
    e_.line(cat("const int blk_half = (blk_s & 1) * ", plane_, ";"));
  load_level0();
  if (registers_)
    prefetch("blk_s + 1", "blk_s + 1 >= blk_lo0 && blk_s + 1 < blk_hi0");
  // Registers: the levels' centre planes are published, one barrier, then every level
  // computes. The next plane publishes into the other half; with one half, not before every
  // work-item has read this plane's.
  for (int64_t j = 1; registers_ && j <= k_; ++j)
    publish_centre(j);
  e_.line("barrier(CLK_LOCAL_MEM_FENCE);");
  for (int64_t j = 1; j <= k_; ++j)
    compute_level(j);
  // The next plane's writes must wait for this plane's reads: with one half of the register
  // window, and in the local window with one step (its next input plane overwrites the slot
  // of plane s - 2r, which level 1 reads now; with more steps a level's barrier orders them).
  if (registers_ ? !halves_ : k_ == 1)
    e_.line("barrier(CLK_LOCAL_MEM_FENCE);");
  e_.close();
}

// Level j's registers shifted by one plane (at every plane, whether the level computes it).
void StreamStepsWriter::rotate_registers(int64_t j) {
  for (int64_t i = 0; i < owned_; ++i) {
    std::string moves;
    for (int64_t m = 0; m + 1 < n_; ++m)
      moves += cat(m ? " " : "", reg(j, i, m), " = ", reg(j, i, m + 1), ";");
    e_.line(moves);
  }
}

// Level 0: input plane s (prefetched with registers).
void StreamStepsWriter::load_level0() {
  e_.open("if (blk_s >= blk_lo0 && blk_s < blk_hi0)");
  if (registers_)
    for_region(0, [&](int64_t i) { e_.line(cat(reg(0, i, n_ - 1), " = blk_next", i, ";")); });
  else
    load_input_plane("blk_s", [&](int64_t, const std::string& v) {
      std::vector<std::string> pos(names_.begin(), names_.end());
      e_.line(cat(level_names_[0], "[(blk_s - blk_lo0) % ", n_, " * ", plane_, " + ",
                  local_index(pos), "] = ", v, ";"));
    });
  e_.close();
}

// Input plane `z` (C text) at a work-item's positions of level 0's region, adjusted for the
// in-plane boundary, stored by `store` (owned position, value).
void StreamStepsWriter::load_input_plane(
    const std::string& z, const std::function<void(int64_t, const std::string&)>& store) {
  e_.line(cat("const int blk_zr = ", wrap_ ? stream_periodic(z, Z_) : z, ";"));
  for_region(0, [&](int64_t owned_i) {
    std::vector<std::string> src = source_positions();
    store(owned_i,
          in_plane_boundary(e_.print(e_.resolve(element_at(args_.at(0).view, "blk_zr", src), {}))));
  });
}

// Registers: input plane s+1 is loaded into blk_next<i> while plane s is computed, so that
// the load's latency is hidden behind a whole plane of the march instead of stalling it.
void StreamStepsWriter::prefetch(const std::string& z, const std::string& condition) {
  e_.open(cat("if (", condition, ")"));
  load_input_plane(
      z, [&](int64_t i, const std::string& v) { e_.line(cat("blk_next", i, " = ", v, ";")); });
  e_.close();
}

// Whether level j (1..k) computes a plane at this step of the march.
std::string StreamStepsWriter::level_active(int64_t j) const {
  return cat("if (blk_s - ", j * r_, " >= blk_lo", j, " && blk_s - ", j * r_, " < blk_hi", j, ")");
}

// Registers: level j-1's plane z = s - jr, the centre of level j's neighbourhoods, into local
// memory. It was computed r planes ago, so every level publishes before one barrier.
void StreamStepsWriter::publish_centre(int64_t j) {
  const std::string& from = level_names_[static_cast<std::size_t>(j - 1)];
  e_.open(level_active(j));
  for_region(j - 1, [&](int64_t owned_i) {
    std::vector<std::string> pos(names_.begin(), names_.end());
    e_.line(cat(from, "[", centre_index(pos), "] = ", reg(j - 1, owned_i, r_), ";"));
  });
  e_.close();
}

// Level j (1..k) computes plane z = s - jr from level j-1's planes z-r..z+r.
void StreamStepsWriter::compute_level(int64_t j) {
  const std::string& from = level_names_[static_cast<std::size_t>(j - 1)];
  e_.open(level_active(j));
  e_.line(cat("const int blk_z = blk_s - ", j * r_, ";"));
  plane_slots(j);
  for_region(j, [&](int64_t owned_i) {
    // The neighbourhood of the source position from level j-1.
    if (registers_) {
      column_from_registers(j, owned_i);
      centre_from_local(from);
    } else {
      neighbourhood_from_local(from);
    }
    store(j, owned_i, apply_f(j));
  });
  e_.close();
  if (!registers_ && j < k_)
    e_.line("barrier(CLK_LOCAL_MEM_FENCE);");
}

// The slots of level j-1's planes z-r..z+r: their boundary source planes.
void StreamStepsWriter::plane_slots(int64_t j) {
  for (int64_t m = 0; m < n_; ++m) {
    std::string q = cat("(blk_z + ", m - r_, ")");
    std::string source = wrap_ ? q : stream_source_of(q, Z_, kind_);
    if (registers_ && !wrap_) // the slot of the source plane
      e_.line(cat("const int blk_zs", m, " = ", source, " - blk_z + ", r_, ";"));
    else if (!registers_)
      e_.line(cat("const int blk_zs", m, " = (", source, " - blk_lo", j - 1, ") % ", n_, ";"));
    if (kind_ == Boundary::Constant || kind_ == Boundary::Antisymmetric)
      e_.line(cat("const bool blk_zo", m, " = ", stream_outside(q, Z_), ";"));
  }
  if (registers_ && !wrap_)
    e_.line(cat("const bool blk_zin = blk_z >= ", r_, " && blk_z < ", Z_, " - ", r_, ";"));
  if (with_consts_ && wrap_)
    e_.line(cat("const int blk_zc = ", stream_periodic("blk_z", Z_), ";"));
}

// The local window: the (2r+1)^d neighbourhood from level j-1's 2r+1 planes in local memory.
void StreamStepsWriter::neighbourhood_from_local(const std::string& from) {
  for (int64_t m = 0; m < n_; ++m) {
    std::vector<std::string> corner;
    for (int i = 0; i < planes_; ++i)
      corner.push_back(cat(stream_source_name(names_[static_cast<std::size_t>(i)]), " - ", r_,
                           " + blk_d", letters_[static_cast<std::size_t>(i)]));
    std::string read =
        along_z(m, cat(from, "[blk_zs", m, " * ", plane_, " + ", local_index(corner), "]"));
    if (planes_ == 2)
      e_.line(cat("for (int blk_dy = 0; blk_dy < ", n_, "; ++blk_dy)"));
    e_.line(cat(planes_ == 2 ? "  " : "", "for (int blk_dx = 0; blk_dx < ", n_, "; ++blk_dx)"));
    e_.line(cat(planes_ == 2 ? "    " : "  ", window_->name, "[",
                window_slot(m, "blk_dy", "blk_dx"), "] = ", read, ";"));
  }
}

// Registers: off the centre plane a star reads only its column, the work-item's own
// registers. Level j-1 holds at p the value at p's source, up to the in-plane boundary's
// negation (self-inverse); a constant position's value is replaced after f anyway. Inside the
// grid along z the slots are fixed; near its ends a plane outside reads its source's slot.
// The centre itself (slot r: plane z, inside the grid along z) is the work-item's own
// register too, which saves a local read per value.
void StreamStepsWriter::column_from_registers(int64_t j, int64_t owned_i) {
  auto fill = [&](bool inside, bool centre) {
    for (int64_t m = 0; m < n_; ++m) {
      if ((m == r_) != centre)
        continue;
      std::string read =
          inside ? reg(j - 1, owned_i, m) : reg_select(j - 1, owned_i, cat("blk_zs", m));
      if (kind_ == Boundary::Antisymmetric)
        read = cat("(", in_plane_boundary(read), ")");
      if (!inside)
        read = along_z(m, read);
      e_.line(cat(window_->name, "[", window_slot(m, cat(r_), cat(r_)), "] = ", read, ";"));
    }
  };
  fill(true, true);
  if (wrap_) {
    fill(true, false);
    return;
  }
  e_.open("if (blk_zin)");
  fill(true, false);
  e_.close();
  e_.open("else");
  fill(false, false);
  e_.close();
}

// Registers: the centre plane but the centre from level j-1's local plane, at fixed window
// slots (f may read any point of it; the device compiler drops the loads of the points it
// does not).
void StreamStepsWriter::centre_from_local(const std::string& from) {
  for (int64_t dy = 0; dy < (planes_ == 2 ? n_ : 1); ++dy)
    for (int64_t dx = 0; dx < n_; ++dx) {
      if (dx == r_ && (planes_ == 1 || dy == r_))
        continue; // the centre: column_from_registers
      std::vector<std::string> at;
      if (planes_ == 2)
        at.push_back(cat(stream_source_name(names_[0]), " + ", dy - r_));
      at.push_back(cat(stream_source_name(names_.back()), " + ", dx - r_));
      e_.line(cat(window_->name, "[", window_slot(r_, cat(dy), cat(dx)), "] = ", from, "[",
                  centre_index(at), "];"));
    }
}

const Operand& StreamStepsWriter::const_arg(int64_t j, std::size_t c) const {
  return args_.at(1 + static_cast<std::size_t>((j - 1) % fields_.phases) * per_phase_ + c);
}

// f of the neighbourhood (with the constant inputs at the source position), into a fresh
// private scalar; returns its name.
std::string StreamStepsWriter::apply_f(int64_t j) {
  View arg = memory_view(window_);
  if (with_consts_) {
    std::vector<std::string> src = source_positions();
    std::vector<View> parts{arg};
    for (std::size_t c = 0; c < per_phase_; ++c) {
      View row = index_view(const_arg(j, c).view, grid_var(wrap_ ? "blk_zc" : "blk_z", 0));
      for (int i = 0; i + 1 < planes_; ++i)
        row = index_view(row, grid_var(src[static_cast<std::size_t>(i)], i + 1));
      parts.push_back(drop_view(row, grid_var(src.back(), planes_)));
    }
    arg = index_view(zip_view(std::move(parts)), 0);
  }
  auto value = std::make_shared<Memory>();
  value->name = e_.fresh("r");
  value->space = AddressSpace::Private;
  value->element = element_;
  value->type = Type::scalar(element_);
  value->is_scalar_var = true;
  e_.pending_declarations_.insert(value->name);
  ++e_.seq_depth_;
  Type arg_type = window_type_;
  if (with_consts_) {
    std::vector<Type> parts{window_type_};
    for (std::size_t c = 0; c < per_phase_; ++c)
      parts.push_back(const_arg(j, c).type.innermost());
    arg_type = Type::tuple(parts);
  }
  e_.apply_write(f_.children[0], {Operand{arg, arg_type}}, memory_view(value));
  --e_.seq_depth_;
  return value->name;
}

// Level j's value at the work-item's position: into the last slot of its registers, into its
// local planes, or (the last level) to the output.
void StreamStepsWriter::store(int64_t j, int64_t owned_i, const std::string& value) {
  std::string v = j < k_ ? in_plane_boundary(value) : value;
  std::vector<std::string> pos(names_.begin(), names_.end());
  if (j < k_ && registers_)
    e_.line(cat(reg(j, owned_i, n_ - 1), " = ", v, ";"));
  else if (j < k_)
    e_.line(cat(level_names_[static_cast<std::size_t>(j)], "[(blk_z - blk_lo", j, ") % ", n_, " * ",
                plane_, " + ", local_index(pos), "] = ", v, ";"));
  else
    e_.line(cat(e_.print(e_.resolve(element_at(dest_, "blk_z", pos), {})), " = ", v, ";"));
}

} // namespace tessera::codegen
