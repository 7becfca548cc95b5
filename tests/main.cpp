// The test programs' main: doctest's, plus suites left out through the environment. The
// sanitizer build (TESSERA_SANITIZE) sets TESSERA_TEST_SUITE_EXCLUDE=kernel-sweeps: those cases
// run hundreds of generated kernels on PoCL through the same host code that smaller cases
// already cover, and the sanitizers do not see inside kernels.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  doctest::Context context;
  if (const char* excluded = std::getenv("TESSERA_TEST_SUITE_EXCLUDE"))
    context.addFilter("test-suite-exclude", excluded);
  context.applyCommandLine(argc, argv);
  return context.run();
}
