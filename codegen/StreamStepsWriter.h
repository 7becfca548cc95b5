// The kernel of StreamSteps (primitives/StreamSteps.cpp) as kernel IR: one method per part of
// the kernel, appended through the Emitter's statements (codegen/Emitter.h), so the passes and
// the printer that every other kernel goes through apply to it too. Internal to codegen/:
// codegen/StreamSteps.cpp (the set-up, parameters, prologue and positions) and
// codegen/StreamStepsMarch.cpp (the marching loop, the registers' rotation, the levels and the
// stores) say what the kernel computes.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codegen/Emitter.h"
#include "core/Fields.h"

namespace tessera::codegen {

// C text shared by the kernel's parts (StreamSteps.cpp).
// A position's boundary source along an extent (the position itself for wrap, whose levels are
// computed on the extended positions).
std::string stream_source_of(const std::string& p, const std::string& extent, Boundary::Kind kind);
std::string stream_source_name(const std::string& p); // blk_x -> blk_sx
// The grid position of an extended (wrap) or in-grid position.
std::string stream_periodic(const std::string& p, const std::string& extent);
std::string stream_outside(const std::string& p, const std::string& extent);

class StreamStepsWriter {
public:
  StreamStepsWriter(Emitter& emitter, const Node& f, const std::vector<Operand>& args,
                    const View& dest);
  // Appends the whole kernel: launch, prologue, buffers, registers and the march.
  void write();

private:
  using Coordinate = std::function<std::string(int)>; // a position's C name per dimension

  // ---- parameters and prologue (StreamSteps.cpp)
  void choose_work_group();
  void set_launch();
  void prologue();
  void level_buffers();
  void declare_registers();
  void declare_window();
  void owned_positions();

  // ---- positions and indices (StreamSteps.cpp)
  std::string E(int i) const; // the extent of in-plane dimension i
  int64_t halo(int64_t level) const { return (k_ - level) * r_; }
  std::vector<std::string> source_positions();
  std::pair<std::vector<int64_t>, int64_t> region(int64_t numbered) const;
  void declare_position(const std::string& q, const std::vector<int64_t>& side, int64_t numbered,
                        const Coordinate& at);
  std::string in_level(int64_t j, int64_t numbered, const Coordinate& at) const;
  Coordinate owned_at(int64_t i, bool source) const;
  void for_region(int64_t j, const std::function<void(int64_t)>& body);
  std::string in_plane_boundary(const std::string& v) const;
  std::string local_index(const std::vector<std::string>& p) const;
  std::string centre_index(const std::vector<std::string>& p) const;
  ArithExpr grid_var(const std::string& name, int dim) const;
  View element_at(View v, const std::string& z, const std::vector<std::string>& p) const;
  std::string window_slot(int64_t m, const std::string& dy, const std::string& dx) const;
  std::string along_z(int64_t m, const std::string& read) const;
  std::string reg(int64_t j, int64_t i, int64_t slot) const;
  std::string reg_select(int64_t j, int64_t i, const std::string& slot) const;

  // ---- the march (StreamStepsMarch.cpp)
  void march();
  void rotate_registers(int64_t j);
  void load_level0();
  void publish_centre(int64_t j);
  void compute_level(int64_t j);
  void plane_slots(int64_t j);
  void column_from_registers(int64_t j, int64_t owned_i);
  void centre_from_local(const std::string& from);
  void neighbourhood_from_local(const std::string& from);
  std::string apply_f(int64_t j);
  void store(int64_t j, int64_t owned_i, const std::string& value);
  std::string level_active(int64_t j) const;
  void load_input_plane(const std::string& z,
                        const std::function<void(int64_t, const std::string&)>& store);
  void prefetch(const std::string& z, const std::string& condition);
  const Operand& const_arg(int64_t j, std::size_t c) const;

  Emitter& e_;
  const Node& f_;
  const std::vector<Operand>& args_;
  const View& dest_;
  StreamStepsFields fields_;
  int d_ = 0;
  int64_t k_ = 0, r_ = 0, n_ = 0, segment_ = 0, work_group_ = 0;
  std::vector<int64_t> tiles_; // the in-plane dimensions, outermost first
  Boundary boundary_;
  Boundary::Kind kind_ = Boundary::Clamp;
  bool registers_ = false, wrap_ = false, halves_ = false, with_consts_ = false;
  int planes_ = 0; // in-plane dimensions
  std::vector<ArithExpr> extent_;
  ScalarKind element_ = ScalarKind::F32;
  std::string ctype_, Z_, constant_, reg_base_;
  std::vector<std::string> letters_, names_, level_names_;
  int64_t kr_ = 0, plane_ = 1, owned_ = 0;
  std::vector<int64_t> buffer_;
  std::shared_ptr<Memory> window_;
  Type window_type_ = f32();
  std::size_t per_phase_ = 0;
};

} // namespace tessera::codegen
