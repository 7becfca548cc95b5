// The `tessera` command-line program's commands. Each parses nothing itself: CLI11 fills the
// options, the command calls the library and prints. Errors are tessera::Error.
#pragma once

#include <string>
#include <vector>

namespace tessera::tools {

struct CommonOptions {
  std::string stencil;
  std::string size;   // "64x64", or symbolic "NxM"
  std::string device; // platform/device name substring or index; empty: TESSERA_DEVICE or PoCL
  std::string output; // -o FILE
};

int list_command();
int devices_command();
int show_command(const CommonOptions& options);
int emit_command(const CommonOptions& options);
int run_command(const CommonOptions& options);

} // namespace tessera::tools
