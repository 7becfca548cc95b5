// libFuzzer harness of the exploration report loader (explore/Report.cpp, parse_report, which
// read_report and `tessera report` use): any text either loads or raises tessera::Error. What
// loads also formats (the text of `tessera report`) and round-trips through report_to_json.
// Anything else (a crash, a sanitizer report, an InternalError, another exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "explore/Report.h"

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  explore::Report report;
  try {
    report = explore::parse_report(text, "'fuzz input'");
  } catch (const InternalError&) {
    throw;
  } catch (const Error&) {
    return 0;
  }
  std::string summary = explore::format_report(report);
  nlohmann::json j = explore::report_to_json(report);
  explore::Report again = explore::report_from_json(j, "'saved report'"); // an Error here is a bug
  if (explore::report_to_json(again) != j) {
    std::fprintf(stderr, "the report changes when it is saved and loaded again:\n%s\n",
                 j.dump(1).c_str());
    std::abort();
  }
  return 0;
}
