// The test programs' main: doctest's, with two settings from the environment.
// - TESSERA_TEST_SUITE_EXCLUDE: suites left out. The sanitizer build (TESSERA_SANITIZE) sets it to
//   kernel-sweeps and extended: those cases run hundreds of generated kernels on PoCL through the
//   same host code that smaller cases already cover, and the sanitizers do not see inside
//   kernels. (The extended suite is also the suite's second tier: CMakeLists.txt.)
// - TESSERA_ROOFLINE_BYTES: tests need a roofline, not a faithful one: 8x a CPU's last-level
//   cache can be gigabytes per buffer, measured again in every fresh cache directory. A value
//   the caller sets wins.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  ::setenv("TESSERA_ROOFLINE_BYTES", "16M", 0);
  doctest::Context context;
  if (const char* excluded = std::getenv("TESSERA_TEST_SUITE_EXCLUDE"))
    context.addFilter("test-suite-exclude", excluded);
  context.applyCommandLine(argc, argv);
  return context.run();
}
