// tessera: the command-line program. Thin: it parses flags and calls the library.
#include "tools/Cli.h"

int main(int argc, char** argv) {
  return tessera::tools::run_cli(argc, argv);
}
