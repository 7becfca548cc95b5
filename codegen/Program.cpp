#include "codegen/Program.h"

#include <algorithm>

#include "codegen/TimeTiled.h"
#include "core/Error.h"
#include "core/Substitute.h"

namespace tessera::codegen {

namespace {

// The source without its kernel's name, to recognise two stages that generate the same kernel.
std::string unnamed_source(const Kernel& k) {
  std::string s = k.source;
  std::string head = " void " + k.name + "("; // after __kernel and any attribute
  if (auto at = s.find(head); at != std::string::npos)
    s.replace(at, head.size(), " void (");
  return s;
}

void add_conditions(std::vector<Assumption>& to, const std::vector<Assumption>& from) {
  for (const auto& a : from)
    if (std::none_of(to.begin(), to.end(),
                     [&](const Assumption& b) { return b.must_be_zero == a.must_be_zero; }))
      to.push_back(a);
}

// Stage outputs (values) are assigned to buffers: a buffer whose value no later launch reads is
// reused by a value of the same element kind and count.
std::vector<std::size_t> assign_buffers(const std::vector<Stage>& stages,
                                        const std::vector<ProgramBuffer>& values,
                                        std::vector<ProgramBuffer>& buffers) {
  std::vector<std::size_t> last_use(values.size(), 0);
  for (std::size_t s = 0; s < stages.size(); ++s)
    for (const auto& in : stages[s].inputs)
      if (in.kind == BufferRef::Intermediate)
        last_use[in.index] = s;
  std::vector<std::size_t> buffer_of(values.size(), 0);
  std::vector<int64_t> busy_until; // per buffer: the last launch that reads its current value
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const BufferRef& out = stages[s].output;
    if (out.kind != BufferRef::Intermediate)
      continue;
    const ProgramBuffer& v = values[out.index];
    std::size_t chosen = buffers.size();
    for (std::size_t b = 0; b < buffers.size(); ++b)
      if (busy_until[b] < static_cast<int64_t>(s) && buffers[b].element == v.element &&
          buffers[b].element_count == v.element_count) {
        chosen = b;
        break;
      }
    if (chosen == buffers.size()) {
      buffers.push_back(v);
      busy_until.push_back(0);
    }
    busy_until[chosen] = static_cast<int64_t>(last_use[out.index]);
    buffer_of[out.index] = chosen;
  }
  return buffer_of;
}

} // namespace

KernelProgram generate_program(const Expr& program, const CodegenOptions& options) {
  CodegenOptions bound = options;
  Expr p = program;
  if (!options.baked_sizes.empty()) {
    // Bake once, so that the stages' parameter types are constants too.
    std::map<std::string, ArithExpr> baked;
    for (const auto& [name, value] : options.baked_sizes)
      baked[name] = value;
    p = substitute_sizes(program, baked);
  }
  if (time_tile_of(p))
    return generate_time_tiled_program(p, options);
  std::vector<Stage> stages = split_into_stages(p);
  KernelProgram result;
  result.input_types = input_types(program);
  if (stages.size() == 1) {
    result.kernels.push_back(generate_kernel(program, options));
    result.output_type = result.kernels[0].output_type;
    result.size_conditions = result.kernels[0].size_conditions;
    result.launches.push_back({0, stages[0].inputs, stages[0].output});
    return result;
  }
  std::vector<ProgramBuffer> values;
  std::vector<std::string> unnamed;
  std::vector<std::size_t> kernel_of_stage;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    CodegenOptions o = options;
    o.kernel_name = cat(options.kernel_name, "_s", result.kernels.size());
    Kernel k = generate_kernel(stages[s].program, o);
    if (stages[s].output.kind == BufferRef::Intermediate) {
      if (values.size() <= stages[s].output.index)
        values.resize(stages[s].output.index + 1);
      const Type& t = k.output_type;
      values[stages[s].output.index] = {t.innermost().scalar_kind(), t.scalar_count()};
    } else {
      result.output_type = k.output_type;
    }
    add_conditions(result.size_conditions, k.size_conditions);
    std::string text = unnamed_source(k);
    auto same = std::find(unnamed.begin(), unnamed.end(), text);
    if (same != unnamed.end()) {
      kernel_of_stage.push_back(static_cast<std::size_t>(same - unnamed.begin()));
      continue;
    }
    kernel_of_stage.push_back(result.kernels.size());
    unnamed.push_back(std::move(text));
    result.kernels.push_back(std::move(k));
  }
  std::vector<std::size_t> buffer_of = assign_buffers(stages, values, result.buffers);
  auto to_buffer = [&](BufferRef r) {
    if (r.kind == BufferRef::Intermediate)
      r.index = buffer_of[r.index];
    return r;
  };
  for (std::size_t s = 0; s < stages.size(); ++s) {
    KernelLaunch launch{kernel_of_stage[s], {}, to_buffer(stages[s].output)};
    for (const auto& in : stages[s].inputs)
      launch.inputs.push_back(to_buffer(in));
    result.launches.push_back(std::move(launch));
  }
  return result;
}

KernelProgram single_kernel_program(Kernel kernel, std::vector<Type> input_types) {
  KernelProgram p;
  p.output_type = kernel.output_type;
  p.size_conditions = kernel.size_conditions;
  p.input_types = std::move(input_types);
  std::vector<BufferRef> inputs;
  for (std::size_t i = 0; i < p.input_types.size(); ++i)
    inputs.push_back({BufferRef::ProgramInput, i});
  p.kernels.push_back(std::move(kernel));
  p.launches.push_back({0, std::move(inputs), {BufferRef::ProgramOutput, 0}});
  return p;
}

std::string KernelProgram::describe() const {
  auto ref = [](const BufferRef& r) {
    switch (r.kind) {
    case BufferRef::ProgramInput:
      return cat("input ", r.index);
    case BufferRef::Intermediate:
      return cat("buffer ", r.index);
    case BufferRef::ProgramOutput:
      return std::string("output");
    }
    return std::string();
  };
  std::string s = cat("program of ", launches.size(), " launch(es), ", kernels.size(),
                      " kernel(s), ", buffers.size(), " intermediate buffer(s)\n");
  for (std::size_t b = 0; b < buffers.size(); ++b)
    s += cat("  buffer ", b, ": ", buffers[b].element_count.to_string(), " x ",
             to_string(buffers[b].element), "\n");
  for (const auto& l : launches) {
    s += cat("  ", kernels[l.kernel].name, "(");
    for (std::size_t i = 0; i < l.inputs.size(); ++i)
      s += (i ? ", " : "") + ref(l.inputs[i]);
    s += cat(") -> ", ref(l.output));
    for (const auto& [name, value] : l.arguments)
      s += cat(", ", name, " = ", value);
    for (std::size_t d = 0; d < l.extent.size(); ++d)
      s += cat(d ? " x " : " on work-items ", l.offset[d], "..", l.offset[d] + l.extent[d] - 1);
    s += "\n";
  }
  for (const auto& k : kernels)
    s += k.describe();
  return s;
}

} // namespace tessera::codegen
