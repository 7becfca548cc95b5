// Probe for PoCL 3.1's kernel-cache race (runtime/BuildCache.cpp): several processes build the
// same new programs at the same time through one PoCL cache, as MPI ranks on one node and
// parallel tests do; now and then one of PoCL's builds fails with no compiler message. Run
// several copies at once (tests/reliability/CMakeLists.txt); each builds `count` programs
// unique to `seed` (the same in every copy) and exits 1 if any build fails. Without the retry in
// BuildCache::compile, 4 copies of 40 builds each failed in about one run of five on 2 cores.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include "runtime/BuildCache.h"
#include "runtime/Session.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: build_race_probe COUNT SEED\n";
    return 2;
  }
  const int count = std::atoi(argv[1]);
  const std::string seed = argv[2];
  try {
    auto session = tessera::runtime::Session::from_env();
    tessera::runtime::BuildCache cache(session.device(), session.context(), {});
    for (int i = 0; i < count; ++i) {
      const std::string source = "kernel void probe(global float* a) {\n"
                                 "  const size_t i = get_global_id(0);\n"
                                 "  a[i] = a[i] * " +
                                 std::to_string(i) + ".0f + " + seed + ".0f;\n}\n";
      cache.build_kernel(source, "probe");
    }
  } catch (const std::exception& e) {
    std::cerr << "build_race_probe: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
