// libFuzzer harness of the expression loader (core/Json.cpp, load_expr): any text either loads
// or raises tessera::Error. What loads also prints, saves, loads back to the same document, and
// type-checks or raises tessera::Error. Anything else (a crash, a sanitizer report, an
// InternalError, another exception, a round trip that changes the document) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/Error.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "primitives/TypeCheck.h"

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  Expr e;
  try {
    e = load_expr(text);
  } catch (const InternalError&) {
    throw; // a bug: reported by libFuzzer as an uncaught exception
  } catch (const Error&) {
    return 0; // rejected with a message
  }
  std::string printed = print(e);
  std::string saved = save_expr(e);
  Expr again = load_expr(saved); // what was saved loads (an Error here is a bug: not caught)
  if (save_expr(again) != saved) {
    std::fprintf(stderr, "save_expr(load_expr(save_expr(e))) != save_expr(e):\n%s\n",
                 saved.c_str());
    std::abort();
  }
  try {
    infer_type(e);
  } catch (const InternalError&) {
    throw;
  } catch (const Error&) {
  }
  return 0;
}
