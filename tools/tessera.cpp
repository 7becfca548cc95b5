// tessera: the command-line program. Thin: it parses flags and calls the library.
#include <CLI/CLI.hpp>
#include <iostream>

#include "core/Error.h"
#include "tools/Commands.h"

int main(int argc, char** argv) {
  using namespace tessera::tools;
  CLI::App app{"tessera: functional stencil programs, rewritten and compiled to OpenCL"};
  app.require_subcommand(1);
  CommonOptions o;

  app.add_subcommand("list", "List the stencils of the catalog")->callback([] {
    std::exit(list_command());
  });
  app.add_subcommand("devices", "List the OpenCL devices")->callback([] {
    std::exit(devices_command());
  });
  auto* show = app.add_subcommand("show", "Print a stencil in Lift notation with its type");
  auto* emit = app.add_subcommand("emit", "Generate the OpenCL kernel of a stencil");
  auto* run = app.add_subcommand(
      "run", "Evaluate a stencil with the interpreter, run its kernel on a device and compare");
  for (auto* cmd : {show, emit, run}) {
    cmd->add_option("stencil", o.stencil, "Stencil name (see `tessera list`)")->required();
    cmd->add_option("--size", o.size, "Grid extents, e.g. 64x64 (names make sizes symbolic)");
  }
  emit->add_option("-o,--output", o.output, "Write the kernel to this file (default: stdout)");
  run->add_option("--device", o.device, "OpenCL device: name substring or index (default: PoCL)");

  try {
    app.parse(argc, argv);
    if (show->parsed()) return show_command(o);
    if (emit->parsed()) return emit_command(o);
    if (run->parsed()) return run_command(o);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const tessera::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
