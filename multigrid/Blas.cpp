#include "multigrid/Blas.h"

#include <clblast.h>

#include "core/Error.h"
#include "runtime/Session.h"

namespace tessera::multigrid {

namespace {

void check(clblast::StatusCode status, const char* routine) {
  if (status != clblast::StatusCode::kSuccess)
    user_error(cat("CLBlast ", routine, " failed with status ", static_cast<int>(status)));
}

bool is_real(ScalarKind kind) {
  return kind == ScalarKind::F32 || kind == ScalarKind::F64;
}

// `call(T{})` runs a CLBlast routine for the element type T of `kind` (double for f64, float
// for f32), checked.
template <class Call> void for_kind(ScalarKind kind, const char* routine, const Call& call) {
  check(kind == ScalarKind::F64 ? call(double{}) : call(float{}), routine);
}

} // namespace

Blas::Blas(DeviceMemory& memory) : memory_(&memory) {
  scratch_ = memory.allocate("blas scratch", ScalarKind::F64, 1);
}

void Blas::check_pair(BufferId x, BufferId y, const char* routine) const {
  if (memory_->kind(x) != memory_->kind(y) || memory_->count(x) != memory_->count(y))
    internal_error(cat("CLBlast ", routine, " on buffers ", memory_->name(x), " and ",
                       memory_->name(y), " of different kinds or sizes"));
  if (!is_real(memory_->kind(x)))
    internal_error(cat("CLBlast ", routine, " needs f32 or f64 buffers"));
}

double Blas::read_scratch(ScalarKind kind) {
  if (kind == ScalarKind::F64) {
    double v = 0;
    memory_->buffer(scratch_).read(&v, sizeof v);
    return v;
  }
  float v = 0;
  memory_->buffer(scratch_).read(&v, sizeof v);
  return v;
}

double Blas::nrm2(BufferId x) {
  return nrm2(x, 0, static_cast<std::size_t>(memory_->count(x)));
}

double Blas::nrm2(BufferId x, std::size_t first, std::size_t count) {
  check_pair(x, x, "Nrm2");
  if (first + count > static_cast<std::size_t>(memory_->count(x)))
    internal_error(cat("CLBlast Nrm2 of elements ", first, " to ", first + count, " of ",
                       memory_->name(x), ", which has ", memory_->count(x)));
  cl_command_queue queue = memory_->session().queue()();
  cl_mem out = memory_->buffer(scratch_).handle()(), in = memory_->buffer(x).handle()();
  for_kind(memory_->kind(x), "Nrm2",
           [&](auto t) { return clblast::Nrm2<decltype(t)>(count, out, 0, in, first, 1, &queue); });
  return read_scratch(memory_->kind(x));
}

double Blas::asum(BufferId x) {
  check_pair(x, x, "Asum");
  auto n = static_cast<std::size_t>(memory_->count(x));
  cl_command_queue queue = memory_->session().queue()();
  cl_mem out = memory_->buffer(scratch_).handle()(), in = memory_->buffer(x).handle()();
  for_kind(memory_->kind(x), "Asum",
           [&](auto t) { return clblast::Asum<decltype(t)>(n, out, 0, in, 0, 1, &queue); });
  return read_scratch(memory_->kind(x));
}

double Blas::dot(BufferId x, BufferId y) {
  check_pair(x, y, "Dot");
  auto n = static_cast<std::size_t>(memory_->count(x));
  cl_command_queue queue = memory_->session().queue()();
  cl_mem out = memory_->buffer(scratch_).handle()();
  cl_mem a = memory_->buffer(x).handle()(), b = memory_->buffer(y).handle()();
  for_kind(memory_->kind(x), "Dot",
           [&](auto t) { return clblast::Dot<decltype(t)>(n, out, 0, a, 0, 1, b, 0, 1, &queue); });
  return read_scratch(memory_->kind(x));
}

void Blas::axpy(double alpha, BufferId x, BufferId y) {
  check_pair(x, y, "Axpy");
  auto n = static_cast<std::size_t>(memory_->count(x));
  cl_command_queue queue = memory_->session().queue()();
  cl_mem a = memory_->buffer(x).handle()(), b = memory_->buffer(y).handle()();
  for_kind(memory_->kind(x), "Axpy", [&](auto t) {
    using T = decltype(t);
    return clblast::Axpy<T>(n, static_cast<T>(alpha), a, 0, 1, b, 0, 1, &queue);
  });
}

} // namespace tessera::multigrid
