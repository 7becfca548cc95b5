#include "multigrid/Layout.h"

#include "core/Error.h"
#include "multigrid/Blas.h"

namespace tessera::multigrid {

void write_values(DeviceMemory& memory, BufferId id, const std::vector<double>& values) {
  if (static_cast<int64_t>(values.size()) != memory.count(id))
    internal_error("host values of the wrong size");
  if (memory.kind(id) == ScalarKind::F64) {
    memory.buffer(id).write(values.data(), values.size() * sizeof(double));
    return;
  }
  std::vector<float> f(values.begin(), values.end());
  memory.buffer(id).write(f.data(), f.size() * sizeof(float));
}

std::vector<double> read_values(DeviceMemory& memory, BufferId id) {
  auto n = static_cast<std::size_t>(memory.count(id));
  if (memory.kind(id) == ScalarKind::F64) {
    std::vector<double> v(n);
    memory.buffer(id).read(v.data(), n * sizeof(double));
    return v;
  }
  std::vector<float> f(n);
  memory.buffer(id).read(f.data(), n * sizeof(float));
  return std::vector<double>(f.begin(), f.end());
}

void Layout::launch(Schedule& s, std::size_t, const std::string& label,
                    std::shared_ptr<CompiledKernel> kernel, const std::vector<Read>& reads,
                    BufferId output) {
  std::vector<BufferId> inputs;
  for (const Read& r : reads)
    inputs.push_back(r.buffer);
  s.launch(label, std::move(kernel), std::move(inputs), output);
}

void Layout::launch_half_sweep(Schedule& s, std::size_t l, const std::string& label,
                               std::shared_ptr<CompiledKernel> kernel,
                               const std::vector<Read>& reads, BufferId output, int) {
  launch(s, l, label, std::move(kernel), reads, output);
}

void Layout::fill_zero(Schedule& s, std::size_t, const std::string& label, BufferId buffer) {
  s.fill_zero(label, buffer);
}

void Layout::coarse_cycle(Schedule&, std::size_t l, const LevelState&, CycleKind, bool) {
  internal_error(cat("level ", l, " is not agglomerated"));
}

void Layout::write(DeviceMemory& memory, BufferId id, std::size_t,
                   const std::vector<double>& values) {
  write_values(memory, id, values);
}

std::vector<double> Layout::read(DeviceMemory& memory, BufferId id, std::size_t) {
  return read_values(memory, id);
}

double Layout::norm(DeviceMemory&, BufferId id, std::size_t, Blas& blas) {
  return blas.nrm2(id);
}

} // namespace tessera::multigrid
