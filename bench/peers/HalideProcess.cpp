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
  json taps = json::array();
  for (const auto& t : s.taps)
    taps.push_back({{"offset", t.offset}, {"weight", t.weight}});
  return json{
      {"name", s.name}, {"dims", s.dims}, {"radius", s.radius}, {"bias", s.bias}, {"taps", taps}}
      .dump();
}

LinearStencil stencil_from_json(const std::string& text) {
  json j = json::parse(text);
  LinearStencil s{j.at("name"), j.at("dims"), j.at("radius"), j.at("bias")};
  for (const auto& t : j.at("taps"))
    s.taps.push_back({t.at("offset").get<std::array<int, 3>>(), t.at("weight").get<float>()});
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
                             const std::vector<float>& x, const std::array<int64_t, 3>& e,
                             const std::string& schedule, int repeats, int threads,
                             uint64_t cache_bytes) {
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
  write_floats(dir / "in.bin", x);
  std::string command = cat("'", helper.string(), "' '", dir.string(), "' ", schedule, " ", e[0],
                            " ", e[1], " ", e[2], " ", repeats, " ", threads, " ", cache_bytes,
                            " 2> '", (dir / "log.txt").string(), "'");
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
      run.out = read_floats(dir / "out.bin", x.size());
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return run;
}

} // namespace tessera::peers
