#include "tessera/Kernel.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "codegen/SharedSource.h"
#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/FilePlan.h"

namespace tessera {

namespace {

std::string extent_text(const ArithExpr& e) {
  return e.to_string();
}

nlohmann::json extent_json(const ArithExpr& e) {
  if (auto c = e.as_constant())
    return *c;
  return e.to_string();
}

std::string role_name(codegen::KernelParam::Role role) {
  switch (role) {
  case codegen::KernelParam::Input:
    return "input";
  case codegen::KernelParam::Output:
    return "output";
  case codegen::KernelParam::Size:
    return "size";
  }
  internal_error("unknown kernel argument role");
}

// What an argument is, in the program's terms.
std::string meaning(const codegen::KernelParam& p) {
  switch (p.role) {
  case codegen::KernelParam::Input:
    if (p.written)
      return cat("a scratch buffer of ", extent_text(p.element_count), " ", to_string(p.element),
                 " values that the kernel reads and writes (edges between launches): create it "
                 "read-write, uninitialised, and keep it between the launches");
    return p.type.is_scalar()
               ? cat("the program's input '", p.name, "', a ", to_string(p.element), " scalar")
               : cat("the program's input '", p.name, "' ", p.type.to_string(), ": ",
                     extent_text(p.element_count), " ", to_string(p.element),
                     " values, row-major, read only");
  case codegen::KernelParam::Output:
    return cat("the program's result ", p.type.to_string(), ": ", extent_text(p.element_count), " ",
               to_string(p.element), " values, row-major, written");
  case codegen::KernelParam::Size:
    return cat("the value of the size variable ", p.name);
  }
  internal_error("unknown kernel argument role");
}

std::string sizes_text(const std::vector<std::string>& sizes) {
  std::string s;
  for (const auto& x : sizes)
    s += (s.empty() ? "" : " x ") + x;
  return s;
}

std::size_t indentation(const std::string& line) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ')
    ++i;
  return i;
}

// Where to break a line before column `limit`: after the least nested ", " past `least`
// (between a call's arguments rather than inside one of them), else at the last space.
std::size_t break_position(const std::string& line, std::size_t limit, std::size_t least) {
  std::size_t best = std::string::npos;
  int depth = 0, best_depth = 0;
  for (std::size_t i = 0; i + 1 < line.size() && i < limit; ++i) {
    depth += line[i] == '(' || line[i] == '[';
    depth -= line[i] == ')' || line[i] == ']';
    if (line[i] == ',' && line[i + 1] == ' ' && i > least &&
        (best == std::string::npos || depth <= best_depth)) {
      best = i + 1;
      best_depth = depth;
    }
  }
  return best != std::string::npos ? best : line.rfind(' ', limit);
}

// One line broken into lines of at most `width` columns where spaces allow it.
void wrap_line(const std::string& line, std::size_t width, std::string& out) {
  std::string rest = line;
  std::size_t indent = indentation(line);
  bool preprocessor = line.compare(indent, 1, "#") == 0;
  std::size_t comment = rest.find("//");
  bool first = true;
  while (rest.size() > width) {
    std::size_t limit = width - (preprocessor ? 2 : 0);
    std::size_t cut = break_position(rest, limit, width / 2);
    std::size_t floor = indentation(rest) + (first ? 0 : 4);
    if (cut == std::string::npos || cut <= floor)
      break; // one token longer than the line: leave it whole
    out += rest.substr(0, cut) + (preprocessor ? " \\" : "") + "\n";
    bool in_comment = comment != std::string::npos && cut > comment;
    std::string prefix(indent + 4, ' ');
    if (in_comment)
      prefix = std::string(indent, ' ') + "//   ";
    rest = prefix + rest.substr(cut + 1);
    comment = in_comment ? indent : rest.find("//");
    first = false;
  }
  out += rest + "\n";
}

void comment_block(std::ostringstream& s, const std::string& title, const std::string& text) {
  s << "// " << title << text << "\n";
}

// The code generator's options of EmitOptions; Error for a bad work-group size.
codegen::CodegenOptions codegen_options(const EmitOptions& options) {
  if (options.local.size() > 3)
    user_error(cat("a work-group size has at most 3 dimensions, got ", options.local.size()));
  codegen::CodegenOptions co;
  co.kernel_name = options.kernel_name;
  for (std::size_t d = 0; d < options.local.size(); ++d) {
    if (options.local[d] <= 0)
      user_error(cat("work-group sizes must be positive, got ", options.local[d]));
    co.local_size[d] = options.local[d];
  }
  return co;
}

} // namespace

codegen::Kernel emit_kernel(const explore::VariantInfo& variant, const EmitOptions& options) {
  codegen::CodegenOptions co = codegen_options(options);
  std::size_t stages = codegen::split_into_stages(variant.program).size();
  if (stages > 1)
    user_error(cat("this variant is a program of ", stages,
                   " kernel launches (each whole-array step its own launch, intermediates in "
                   "buffers), not one kernel: use tessera::emit_program"));
  if (explore::is_split_launch(variant))
    user_error("this variant is a split launch (its interior and the slabs around it, two kernels "
               "in several launches), not one kernel: use tessera::emit_program");
  return codegen::generate_kernel(variant.program, co);
}

codegen::KernelProgram emit_program(const explore::VariantInfo& variant,
                                    const EmitOptions& options) {
  return explore::generate_variant(variant, codegen_options(options));
}

std::string kernel_file(const codegen::Kernel& kernel, const explore::VariantInfo& variant) {
  std::ostringstream s;
  s << "// Kernel " << kernel.name << ", generated by tessera.\n//\n";
  comment_block(s, "Program (Lift notation): ", kernel.program_text);
  s << "//\n// Rewrite history:";
  const std::vector<std::string> history = variant.history.lines();
  if (history.empty())
    s << " none (the program as given)";
  s << "\n";
  for (std::size_t i = 0; i < history.size(); ++i)
    s << "//   " << i + 1 << ". " << history[i] << "\n";
  std::vector<std::string> global, local;
  bool any_local = false;
  for (int d = 0; d < kernel.launch.dims; ++d) {
    global.push_back(extent_text(kernel.launch.global[d]));
    any_local |= kernel.launch.local[d] > 0;
    local.push_back(std::to_string(std::max<int64_t>(1, kernel.launch.local[d])));
  }
  s << "//\n// Launch: " << kernel.launch.dims << "-D NDRange, global size " << sizes_text(global)
    << ", local size " << (any_local ? sizes_text(local) : "chosen by the implementation")
    << " (dimension 0 first)";
  if (kernel.local_memory_bytes > 0)
    s << "; " << kernel.local_memory_bytes << " bytes of local memory";
  s << ".\n//\n// Arguments, in order:\n";
  for (const auto& p : kernel.params)
    s << "//   " << p.name << ": " << meaning(p) << "\n";
  // The code generator's own one-line header is replaced by the one above.
  const std::string own_header = "// Generated by tessera.\n";
  bool has_own = kernel.source.compare(0, own_header.size(), own_header) == 0;
  s << "\n" << kernel.source.substr(has_own ? own_header.size() : 0);
  return wrap_lines(s.str());
}

nlohmann::json launch_description(const codegen::Kernel& kernel,
                                  const explore::VariantInfo& variant) {
  nlohmann::json j;
  j["format"] = "tessera-launch";
  j["version"] = 2;
  j["kernel"] = kernel.name;
  j["dims"] = kernel.launch.dims;
  j["global"] = nlohmann::json::array();
  bool any_local = false;
  for (int d = 0; d < kernel.launch.dims; ++d) {
    j["global"].push_back(extent_json(kernel.launch.global[d]));
    any_local |= kernel.launch.local[d] > 0;
  }
  if (any_local) {
    j["local"] = nlohmann::json::array();
    for (int d = 0; d < kernel.launch.dims; ++d)
      j["local"].push_back(std::max<int64_t>(1, kernel.launch.local[d]));
  } else {
    j["local"] = nullptr;
  }
  j["arguments"] = nlohmann::json::array();
  for (const auto& p : kernel.params) {
    nlohmann::json a{{"name", p.name},
                     {"role", role_name(p.role)},
                     {"element", to_string(p.element)},
                     {"meaning", meaning(p)}};
    if (p.role != codegen::KernelParam::Size) {
      a["count"] = extent_json(p.element_count);
      a["type"] = p.type.to_string();
      a["access"] = p.role == codegen::KernelParam::Output ? "write"
                    : p.written                            ? "read-write"
                                                           : "read";
    }
    j["arguments"].push_back(a);
  }
  j["local_memory_bytes"] = kernel.local_memory_bytes;
  j["program"] = kernel.program_text;
  explore::write_derivation(j, variant.history);
  return j;
}

namespace {

std::string buffer_text(const codegen::BufferRef& b) {
  switch (b.kind) {
  case codegen::BufferRef::ProgramInput:
    return cat("input ", b.index);
  case codegen::BufferRef::Intermediate:
    return cat("buffer ", b.index);
  case codegen::BufferRef::ProgramOutput:
    return "the output";
  }
  return "";
}

nlohmann::json buffer_json(const codegen::BufferRef& b) {
  switch (b.kind) {
  case codegen::BufferRef::ProgramInput:
    return {{"input", b.index}};
  case codegen::BufferRef::Intermediate:
    return {{"buffer", b.index}};
  case codegen::BufferRef::ProgramOutput:
    return "output";
  }
  return nullptr;
}

} // namespace

bool is_one_kernel(const codegen::KernelProgram& program) {
  if (program.launches.size() != 1 || !program.buffers.empty())
    return false;
  const auto& launch = program.launches[0];
  if (!launch.arguments.empty())
    return false;
  for (const auto& in : launch.inputs)
    if (in.kind != codegen::BufferRef::ProgramInput)
      return false;
  return true;
}

// " with inverted = 1", the launch's own values of size arguments; empty when it has none.
std::string arguments_text(const codegen::KernelLaunch& launch) {
  std::string s;
  for (const auto& [name, value] : launch.arguments)
    s += cat(s.empty() ? " with " : ", ", name, " = ", value);
  return s;
}

namespace {

// " on 318x318x318 work-items from offset 1x1x1", a launch of a part of its kernel's range;
// empty for the whole range.
std::string part_text(const codegen::KernelLaunch& launch) {
  if (launch.extent.empty())
    return "";
  return cat(" on ", explore::size_text(launch.extent), " work-items from offset ",
             explore::size_text(launch.offset));
}

} // namespace

std::string program_file(const codegen::KernelProgram& program,
                         const explore::VariantInfo& variant) {
  if (is_one_kernel(program))
    return kernel_file(program.kernels[program.launches[0].kernel], variant);
  std::ostringstream s;
  s << "// A program of " << program.kernels.size() << " kernels in " << program.launches.size()
    << " launches, generated by tessera. The launches run in order;\n"
    << "// intermediate arrays live in buffers between them. It builds as one OpenCL program: a\n"
    << "// helper is written once, with the first kernel that uses it.\n//\n";
  s << "// Buffers:";
  if (program.buffers.empty())
    s << " none";
  s << "\n";
  for (std::size_t b = 0; b < program.buffers.size(); ++b)
    s << "//   buffer " << b << ": " << extent_text(program.buffers[b].element_count) << " "
      << to_string(program.buffers[b].element) << " values\n";
  s << "//\n// Launches, in order:\n";
  for (std::size_t l = 0; l < program.launches.size(); ++l) {
    const auto& launch = program.launches[l];
    std::string inputs;
    for (const auto& in : launch.inputs)
      inputs += (inputs.empty() ? "" : ", ") + buffer_text(in);
    s << "//   " << l + 1 << ". " << program.kernels[launch.kernel].name << arguments_text(launch)
      << part_text(launch) << " reads " << (inputs.empty() ? "nothing" : inputs) << ", writes "
      << buffer_text(launch.output) << "\n";
  }
  std::string out = s.str();
  // One source: a host builds it as one OpenCL program.
  const std::vector<std::string> sources = codegen::shared_sources(program.kernels).sources;
  for (std::size_t i = 0; i < program.kernels.size(); ++i) {
    codegen::Kernel k = program.kernels[i];
    k.source = sources[i];
    out += '\n'; // (not "\n" + ...: GCC 12 warns falsely, -Wstringop-overflow)
    out += kernel_file(k, variant);
  }
  return wrap_lines(out);
}

nlohmann::json launch_description(const codegen::KernelProgram& program,
                                  const explore::VariantInfo& variant) {
  if (is_one_kernel(program))
    return launch_description(program.kernels[program.launches[0].kernel], variant);
  nlohmann::json j;
  j["format"] = "tessera-launch";
  j["version"] = 2;
  j["kernels"] = nlohmann::json::array();
  for (const auto& k : program.kernels)
    j["kernels"].push_back(launch_description(k, variant));
  j["buffers"] = nlohmann::json::array();
  for (const auto& b : program.buffers)
    j["buffers"].push_back(
        {{"element", to_string(b.element)}, {"count", extent_json(b.element_count)}});
  j["launches"] = nlohmann::json::array();
  for (const auto& launch : program.launches) {
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& in : launch.inputs)
      inputs.push_back(buffer_json(in));
    nlohmann::json entry{{"kernel", launch.kernel},
                         {"name", program.kernels[launch.kernel].name},
                         {"inputs", inputs},
                         {"output", buffer_json(launch.output)}};
    if (!launch.arguments.empty())
      entry["arguments"] = launch.arguments; // this launch's values of size arguments
    if (!launch.extent.empty()) {            // a part of the kernel's range (a split launch)
      entry["offset"] = launch.offset;
      entry["global"] = launch.extent;
    }
    j["launches"].push_back(std::move(entry));
  }
  explore::write_derivation(j, variant.history);
  return j;
}

void write_kernel_files(const codegen::Kernel& kernel, const explore::VariantInfo& variant,
                        const std::string& kernel_path, const std::string& launch_path) {
  FilePlan()
      .output(kernel_path, "the kernel path", "the kernel")
      .output(launch_path, "the launch path", "the launch description")
      .check();
  write_file_atomically(kernel_path, kernel_file(kernel, variant));
  if (!launch_path.empty())
    write_file_atomically(launch_path, launch_description(kernel, variant).dump(2) + "\n");
}

void write_kernel_files(const codegen::KernelProgram& program, const explore::VariantInfo& variant,
                        const std::string& kernel_path, const std::string& launch_path) {
  write_file_atomically(kernel_path, program_file(program, variant));
  if (!launch_path.empty())
    write_file_atomically(launch_path, launch_description(program, variant).dump(2) + "\n");
}

std::string wrap_lines(const std::string& source, std::size_t width) {
  if (width < 20)
    user_error(cat("a line width below 20 columns is not useful, got ", width));
  std::string out;
  std::istringstream lines(source);
  for (std::string line; std::getline(lines, line);)
    wrap_line(line, width, out);
  return out;
}

} // namespace tessera
