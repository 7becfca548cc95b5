// The Halide peer of cpu_peers, in a process of its own (see peers/HalideProcess.h):
//   halide_peer DIR SCHEDULE REPEATS THREADS CACHE_BYTES
// reads DIR/stencil.json and DIR/in0.bin, DIR/in1.bin, ... (one per input), writes DIR/out.bin and
// DIR/result.json
// ({"median_ms", "compile_s"} or {"error"}).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/Error.h"
#include "peers/HalidePeer.h"
#include "peers/HalideProcess.h"

using namespace tessera;

int main(int argc, char** argv) try {
  if (argc != 6)
    user_error("usage: halide_peer DIR SCHEDULE REPEATS THREADS CACHE_BYTES");
  std::filesystem::path dir = argv[1];
  ::setenv("HL_NUM_THREADS", argv[4], 1); // read by Halide's runtime at its first pipeline
  std::stringstream text;
  text << std::ifstream(dir / "stencil.json").rdbuf();
  auto stencil = peers::stencil_from_json(text.str());
  std::vector<std::vector<float>> x;
  for (int m = 0; m < stencil.inputs(); ++m) {
    const auto& e = stencil.in[static_cast<std::size_t>(m)];
    x.push_back(peers::read_floats(dir / cat("in", m, ".bin"),
                                   static_cast<std::size_t>(e[0] * e[1] * e[2])));
  }
  auto run = peers::run_halide(stencil, x, argv[2], std::stoi(argv[3]), std::stoi(argv[4]),
                               std::stoull(argv[5]));
  nlohmann::json result;
  if (run.error.empty()) {
    peers::write_floats(dir / "out.bin", run.out);
    result = {{"median_ms", run.median_ms}, {"compile_s", run.compile_s}};
  } else {
    result = {{"error", run.error}};
  }
  std::ofstream(dir / "result.json") << result.dump() << "\n";
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "halide_peer: %s\n", e.what());
  return 2;
}
