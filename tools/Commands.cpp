#include "tools/Commands.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "codegen/Names.h"
#include "codegen/Program.h"
#include "compile/DeviceLimits.h"
#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/FilePlan.h"
#include "core/Printer.h"
#include "explore/Report.h"
#include "explore/TuningDatabase.h"
#include "explore/VariantNames.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Lower.h"
#include "runtime/Device.h"
#include "stencils/Catalog.h"
#include "tessera/Kernel.h"
#include "tools/Problem.h"
#include "tools/ProgramSource.h"

namespace tessera::tools {

namespace {

// "64x64" -> {64, 64}; non-numeric parts are size variables ("NxM").
std::vector<ArithExpr> parse_size(const std::string& text, int dims, const std::string& stencil) {
  std::vector<ArithExpr> extents;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('x', start);
    if (end == std::string::npos)
      end = text.size();
    std::string part = text.substr(start, end - start);
    if (part.empty())
      user_error(cat("bad size '", text, "': expected extents like 64x64"));
    if (std::isdigit(static_cast<unsigned char>(part[0])) || part[0] == '-' || part[0] == '+') {
      std::size_t used = 0;
      long long v = 0;
      try {
        v = std::stoll(part, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != part.size() || v <= 0)
        user_error(cat("bad size '", text, "': '", part, "' is not a positive integer"));
      extents.push_back(ArithExpr(static_cast<int64_t>(v)));
    } else {
      for (char c : part)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
          user_error(cat("bad size '", text, "': '", part, "' is neither a number nor a name"));
      extents.push_back(ArithExpr::size_var(part));
    }
    start = end + 1;
  }
  if (static_cast<int>(extents.size()) != dims)
    user_error(cat(stencil, " is ", dims, "-D: give ", dims, " extents like ",
                   dims == 1   ? "1024"
                   : dims == 2 ? "256x256"
                               : "64x64x64",
                   ", got '", text, "'"));
  return extents;
}

// The stencil or program at --size (or the default size). Numeric sizes get the same check on
// every command (check_point_count), so that no command accepts a grid that another refuses.
Expr build(const CommonOptions& o, const ProgramSource& source) {
  std::string text = size_of(o, source);
  auto extents = parse_size(text, source.info.dims, source.info.name);
  std::vector<int64_t> numeric;
  for (const auto& e : extents)
    if (auto c = e.as_constant())
      numeric.push_back(*c);
  if (numeric.size() == extents.size())
    check_point_count(text, numeric);
  return source.info.build(extents);
}

void write_text(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::cout << text;
    return;
  }
  write_file_atomically(path, text);
}

std::vector<int64_t> parse_local(const std::string& text) {
  std::vector<int64_t> local;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('x', start);
    if (end == std::string::npos)
      end = text.size();
    std::string part = text.substr(start, end - start);
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (part.empty() || used != part.size() || v <= 0)
      user_error(cat("bad work-group size '", text, "': expected sizes like 32x8"));
    local.push_back(v);
    start = end + 1;
  }
  if (local.size() > 3)
    user_error(cat("bad work-group size '", text, "': at most 3 dimensions"));
  return local;
}

// emit's files, checked before the work (docs/cli.md, "Outputs"): each may be written, the
// kernel and the launch description are not one file, and neither is the --program read.
void check_emit_outputs(const CommonOptions& o) {
  auto file = [](const std::string& path) { return path == "-" ? std::string() : path; };
  FilePlan()
      .input(o.program, "the --program file", "the program")
      .output(file(o.output), "-o", "the kernel")
      .output(file(o.launch_json), "--json", "the launch description")
      .check();
}

} // namespace

ProgramSource source_of(const CommonOptions& o) {
  return resolve_program(o.stencil, o.program, o.steps, o.boundary);
}

std::string size_of(const CommonOptions& o, const ProgramSource& source) {
  return o.size.empty() ? source.default_size : o.size;
}

void check_point_count(const std::string& text, const std::vector<int64_t>& extents) {
  long double total = 1;
  for (auto e : extents)
    total *= static_cast<long double>(e);
  if (total > static_cast<long double>(int64_t{1} << 31))
    user_error(cat("bad size '", text, "': ", static_cast<double>(total),
                   " points is more than the 2^31 that 32-bit kernel indices can address"));
}

SelectedVariant select_variant(const Expr& program, const std::string& which, int depth,
                               const std::string& name, const runtime::Device* device) {
  if (which == "0" && depth <= 1)
    return {0, variant_info({rewrite::lower_default(program), {}})};
  auto v = enumerate_variants(program, depth);
  try {
    std::size_t index = explore::find_variant(v, which, name, depth);
    return {index, v.variants[index]};
  } catch (const Error&) {
    if (!device || std::all_of(which.begin(), which.end(), ::isdigit))
      throw;
  }
  rewrite::EnumerateOptions options;
  explore::apply_device_limits(options, *device);
  auto on_device = enumerate_variants(program, depth, options);
  std::size_t index = explore::find_variant(on_device, which, name, depth);
  return {index, on_device.variants[index], true};
}

std::vector<int64_t> parse_numeric_size(const std::string& text, int dims,
                                        const std::string& stencil) {
  std::vector<int64_t> extents;
  for (const auto& e : parse_size(text, dims, stencil)) {
    auto c = e.as_constant();
    if (!c)
      user_error(cat("bad size '", text, "': '", e.to_string(),
                     "' is a name; this command needs numeric extents like 256x256"));
    extents.push_back(*c);
  }
  check_point_count(text, extents);
  return extents;
}

std::filesystem::path plan_tuning_database(FilePlan& files, const std::string& value) {
  if (value == "off")
    return {};
  if (value.empty()) {
    std::filesystem::path fallback = explore::default_tuning_database();
    files.input(fallback.string(), "the tuning database in the cache directory",
                "the tuning database");
    return fallback;
  }
  files.input(value, "the --tuning-db file", "the tuning database",
              [](const std::string& path) { explore::read_tuning_file(path); });
  return value;
}

int list_command() {
  for (const auto& s : stencils::catalog())
    std::cout << s.name << std::string(12 - std::min<std::size_t>(11, s.name.size()), ' ') << s.dims
              << "-D  " << s.description << "\n";
  return 0;
}

int devices_command() {
  auto devices = runtime::list_devices();
  if (devices.empty())
    user_error(runtime::missing_device_message(devices, ""));
  for (std::size_t i = 0; i < devices.size(); ++i)
    std::cout << i << ": " << devices[i].description() << "\n";
  return 0;
}

int show_command(const CommonOptions& o) {
  auto source = source_of(o);
  const auto& info = source.info;
  Expr p = build(o, source);
  std::cout << info.name << ": " << info.description << "\n";
  std::cout << "  program: " << print(p) << "\n";
  std::cout << "  type:    " << infer_type(p) << "\n";
  std::cout << "  lowered: " << print(rewrite::lower_default(p)) << "\n";
  return 0;
}

int variants_command(const CommonOptions& o) {
  auto source = source_of(o);
  const auto& info = source.info;
  Expr p = build(o, source);
  auto v = enumerate_variants(p, o.depth);
  std::cout << info.name << " " << size_of(o, source) << ", depth " << o.depth << ": " << v.summary
            << "\n";
  std::cout << "program  " << print(p) << "\n";
  for (const auto& line : v.absent)
    std::cout << "absent   " << line << "\n";
  for (const auto& line : v.rejected)
    std::cout << "rejected " << line << "\n";
  for (std::size_t i = 0; i < v.variants.size(); ++i) {
    const auto& var = v.variants[i];
    std::string steps = explore::variant_name(var.history); // what --variant also accepts
    if (i == 0)
      steps += " (the plain MapGlb lowering: the baseline)";
    std::cout << std::setw(4) << i << "  [" << variant_family(var.history) << "] " << steps
              << "\n      " << var.text << "\n";
  }
  return 0;
}

int emit_command(const CommonOptions& o) {
  auto source = source_of(o);
  const auto& info = source.info;
  check_emit_outputs(o);
  codegen::CodegenOptions options;
  options.kernel_name = codegen::kernel_identifier(info.name);
  explore::VariantInfo variant =
      select_variant(build(o, source), o.variant, o.depth, info.name).variant;
  if (!o.local.empty()) {
    auto local = parse_local(o.local);
    int dims = 0;
    for (const auto& k : explore::generate_variant(variant, options).kernels)
      dims = std::max(dims, k.launch.dims);
    if (static_cast<int>(local.size()) > dims)
      user_error(cat("bad work-group size '", o.local, "': it has ", local.size(),
                     " dimensions, the kernel of ", info.name, "'s variant ", o.variant,
                     " launches ", dims, " (give at most ", dims, " sizes, like ",
                     dims == 1   ? "64"
                     : dims == 2 ? "32x8"
                                 : "8x8x4",
                     ")"));
    for (std::size_t d = 0; d < local.size(); ++d)
      options.local_size[d] = local[d];
  }
  // One kernel, or one per launch of a program of kernels (all in one source with a header;
  // the launch description lists every launch).
  auto kernels = explore::generate_variant(variant, options);
  write_text(o.output, program_file(kernels, variant));
  if (!o.launch_json.empty())
    write_text(o.launch_json, launch_description(kernels, variant).dump(2) + "\n");
  if (!o.output.empty() && o.output != "-")
    std::cerr << (kernels.launches.size() == 1 ? kernels.kernels[0].describe()
                                               : kernels.describe());
  return 0;
}

} // namespace tessera::tools
