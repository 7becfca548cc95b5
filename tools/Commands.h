// The `tessera` command-line program's commands. Each parses nothing itself: CLI11 fills the
// options (tools/Cli.cpp), the command calls the library and prints. Errors are tessera::Error
// ("error: ..." and a non-zero exit code in run_cli).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "explore/Space.h"
#include "tools/ProgramSource.h"

namespace tessera::runtime {
struct Device;
}

namespace tessera {
class FilePlan;
}

namespace tessera::tools {

struct CommonOptions {
  std::string stencil;
  std::string size;   // "64x64", or symbolic "NxM"
  std::string device; // platform/device name substring or index; empty: TESSERA_DEVICE or PoCL
  std::string output; // -o FILE
  int depth = 1;      // rewrite depth of the variant enumeration
  std::string variant = "0"; // emit, run: number or name of a variant (0 = plain MapGlb lowering)
  std::string local;         // emit: work-group size "32x8" for kernels with an automatic one
  std::string program;       // --program FILE.json: the user's program instead of a stencil
  int steps = 1;             // --steps K: K time steps of the program
  std::string boundary;      // --boundary B: each step's boundary (empty: the program's own)
  std::string launch_json;   // emit --json FILE: the launch description
};

struct ExploreCommandOptions {
  std::string stencil;
  std::string size;
  std::string device;
  double budget_s = 60;
  std::string json; // report file (written atomically after every point)
  std::string plot; // SVG picture written at the end
  std::string strategy = "halving";
  int depth = 1;
  int repeats = 5;
  unsigned seed = 1;
  bool resume = false;   // continue the report in `json`
  bool progress = false; // force the progress bar (default: when stderr is a terminal)
  bool quiet = false;    // no summary on stdout
  std::string program;   // --program FILE.json
  int steps = 1;         // --steps K
  std::string boundary;  // --boundary B
  std::string tuning_db; // --tuning-db FILE ("off": none; empty: the default database)
  std::string devices;   // --devices all|SPEC: the variants spread over several devices
};

int list_command();
int devices_command();
int show_command(const CommonOptions& options);
int variants_command(const CommonOptions& options);
int emit_command(const CommonOptions& options);
int run_command(const CommonOptions& options);
int explore_command(const ExploreCommandOptions& options);
// explore --devices (tools/ExploreDevices.cpp).
int explore_devices_command(const ExploreCommandOptions& options);
int report_command(const std::string& path);
int plot_command(const std::string& path, const std::string& svg);

// What a command works on: its stencil or --program, --steps time steps of it.
ProgramSource source_of(const CommonOptions& options);
// The size a command uses: --size, else the source's default (64, 32x32, 16x16x16, or a
// --program's own constant extents).
std::string size_of(const CommonOptions& options, const ProgramSource& source);
// Error when the grid has more than 2^31 points (32-bit kernel indices); every command that
// gets numeric extents checks them here.
void check_point_count(const std::string& text, const std::vector<int64_t>& extents);
// The variant that --variant `which` names among the executable variants at `depth`: its number
// (0: the plain MapGlb lowering) or its name (explore/VariantNames.h); Error naming the valid
// range and the names' form otherwise. Numbers are those of `tessera variants` (no device); with
// `device`, a name that no variant there has is looked up among the variants the device is
// offered as well (a CPU's rolling tiles, its wider coarsening), and `device_only` says so.
struct SelectedVariant {
  std::size_t index = 0;
  explore::VariantInfo variant;
  bool device_only = false;
};
SelectedVariant select_variant(const Expr& program, const std::string& which, int depth,
                               const std::string& name, const runtime::Device* device = nullptr);

// The tuning database of --tuning-db VALUE (a file; "off": none; empty: tuning.json in the cache
// directory), added to `files` as an input: no output may replace it, and a file the user named
// must be a tuning database if it exists (checked by files.check(), before any work).
std::filesystem::path plan_tuning_database(FilePlan& files, const std::string& value);

// "64x64" -> {64, 64} (exactly `dims` positive integers); Error naming the problem otherwise.
std::vector<int64_t> parse_numeric_size(const std::string& text, int dims,
                                        const std::string& stencil);

} // namespace tessera::tools
