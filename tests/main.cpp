#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  // Tests need a roofline, not a faithful one: 8x a CPU's last-level cache can be gigabytes per
  // buffer, measured again in every fresh cache directory. A value the caller sets wins.
  ::setenv("TESSERA_ROOFLINE_BYTES", "16M", 0);
  return doctest::Context(argc, argv).run();
}
