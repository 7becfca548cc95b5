// Time bounds of the tests that check that something ends within seconds (a budget, Ctrl-C):
// under AddressSanitizer (the CI's sanitizer build, -O1) everything runs several times slower,
// so a bound is scaled, still far below the minutes the hangs they guard against took.
#pragma once

namespace tessera::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr double kTimeScale = 4;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr double kTimeScale = 4;
#else
inline constexpr double kTimeScale = 1;
#endif
#else
inline constexpr double kTimeScale = 1;
#endif

// `seconds` on a plain build, more under the sanitizers.
inline constexpr double within(double seconds) {
  return seconds * kTimeScale;
}

} // namespace tessera::testing
