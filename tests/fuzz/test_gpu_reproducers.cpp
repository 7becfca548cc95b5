// The reproducers tessera_fuzz wrote on an NVIDIA H200 (driver 580) whose kernels the driver
// miscompiled: 32-bit integer max/min over negated values (codegen/Portability.h). On the
// default device (PoCL) they check that the regenerated kernels still compute the interpreter's
// values and that every i32 selection's condition goes through tessera_cond; run with
// TESSERA_DEVICE=NVIDIA on a GPU, the same cases check the workaround there.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <sys/wait.h>

namespace {

struct Outcome {
  int status = -1;
  std::string output;
};

Outcome replay(const std::string& file) {
  const std::string command = "timeout 60 " TESSERA_FUZZ_PATH " --replay " TESSERA_SOURCE_DIR
                              "/tests/fuzz/data/" +
                              file + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe)
    throw std::runtime_error("popen failed");
  Outcome o;
  std::array<char, 4096> buffer{};
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    o.output.append(buffer.data(), n);
  int raw = ::pclose(pipe);
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return o;
}

} // namespace

TEST_CASE("NVIDIA's integer max/min miscompiles: the fuzz reproducers pass, through tessera_cond") {
  for (const char* file :
       {"nvidia-failure-seed3105-case423.json", "nvidia-failure-seed6005-case179.json",
        "nvidia-failure-seed6009-case712.json", "nvidia-failure-seed6010-case58.json"}) {
    CAPTURE(file);
    Outcome o = replay(file);
    INFO(o.output.substr(o.output.size() > 3000 ? o.output.size() - 3000 : 0));
    CHECK(o.status == 0);
    CHECK(o.output.find("\nPASSED") != std::string::npos);
    CHECK(o.output.find("tessera_cond(") != std::string::npos); // the kernel printed by --replay
  }
}
