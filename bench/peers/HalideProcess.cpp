#include "peers/HalideProcess.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/Error.h"

namespace tessera::peers {

namespace fs = std::filesystem;
using nlohmann::json;

std::string stencil_to_json(const LinearStencil& s) {
  json classes = json::array();
  for (const auto& c : s.classes) {
    json taps = json::array();
    for (const auto& t : c.taps)
      taps.push_back({{"offset", t.offset}, {"weight", t.weight}, {"input", t.input}});
    classes.push_back({{"bias", c.bias}, {"taps", taps}});
  }
  json scales = json::array();
  for (auto sc : s.scale)
    scales.push_back(static_cast<int>(sc));
  return json{{"name", s.name},     {"dims", s.dims},
              {"radius", s.radius}, {"edge", static_cast<int>(s.edge)},
              {"out", s.out},       {"in", s.in},
              {"scale", scales},    {"parity", s.parity},
              {"classes", classes}}
      .dump();
}

LinearStencil stencil_from_json(const std::string& text) {
  json j = json::parse(text);
  LinearStencil s{j.at("name"), j.at("dims"), j.at("radius"),
                  static_cast<Boundary::Kind>(j.at("edge").get<int>()), j.at("out")};
  s.in = j.at("in").get<std::vector<Extents3>>();
  for (const auto& sc : j.at("scale"))
    s.scale.push_back(static_cast<Scale>(sc.get<int>()));
  s.parity = j.at("parity");
  for (const auto& c : j.at("classes")) {
    TapClass tc{c.at("bias")};
    for (const auto& t : c.at("taps"))
      tc.taps.push_back(
          {t.at("offset").get<std::array<int, 3>>(), t.at("weight").get<float>(), t.at("input")});
    s.classes.push_back(tc);
  }
  return s;
}

void write_floats(const fs::path& path, const std::vector<float>& values) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()),
            static_cast<std::streamsize>(values.size() * sizeof(float)));
  if (!out)
    user_error(cat("cannot write ", path.string()));
}

std::vector<float> read_floats(const fs::path& path, std::size_t count) {
  std::vector<float> values(count);
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(values.data()),
          static_cast<std::streamsize>(count * sizeof(float)));
  if (!in || static_cast<std::size_t>(in.gcount()) != count * sizeof(float))
    user_error(cat("cannot read ", count, " floats from ", path.string()));
  return values;
}

HalideRun run_halide_process(const fs::path& helper, const LinearStencil& s,
                             const std::vector<std::vector<float>>& x, const std::string& schedule,
                             int repeats, int threads, uint64_t cache_bytes) {
  HalideRun run;
  run.schedule = schedule;
  if (!fs::exists(helper)) {
    run.error = cat("no ", helper.string(), " (built only where CMake finds Halide: ",
                    "scripts/install-bench-deps.sh installs libhalide14-0-dev)");
    return run;
  }
  std::string pattern = (fs::temp_directory_path() / "tessera-halide-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    user_error("cannot create a temporary directory for the Halide peer");
  fs::path dir = pattern;
  std::ofstream(dir / "stencil.json") << stencil_to_json(s);
  for (std::size_t m = 0; m < x.size(); ++m)
    write_floats(dir / cat("in", m, ".bin"), x[m]);
  std::string command =
      cat("'", helper.string(), "' '", dir.string(), "' ", schedule, " ", repeats, " ", threads,
          " ", cache_bytes, " 2> '", (dir / "log.txt").string(), "'");
  int status = std::system(command.c_str());
  std::ifstream result(dir / "result.json");
  if (status != 0 || !result) {
    std::stringstream log;
    log << std::ifstream(dir / "log.txt").rdbuf();
    run.error = cat("halide_peer failed (exit status ", WEXITSTATUS(status), "): ", log.str());
  } else {
    std::stringstream text;
    text << result.rdbuf();
    json j = json::parse(text.str());
    run.error = j.value("error", "");
    run.compile_s = j.value("compile_s", 0.0);
    run.median_ms = j.value("median_ms", 0.0);
    if (run.error.empty())
      run.out = read_floats(dir / "out.bin", s.out_cells());
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return run;
}

} // namespace tessera::peers
