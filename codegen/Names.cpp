#include "codegen/Names.h"

#include <cctype>
#include <set>
#include <sstream>

#include "core/Error.h"

namespace tessera::codegen {

std::string sanitize(const std::string& name) {
  std::string s;
  for (char c : name)
    s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    s = "in_" + s;
  return s;
}

namespace {

// The words of a text separated by spaces.
std::set<std::string> words(const std::string& text) {
  std::set<std::string> set;
  std::istringstream in(text);
  for (std::string word; in >> word;)
    set.insert(word);
  return set;
}

// OpenCL C's keywords, type names and qualifiers, and the kernel's output.
bool keyword_or_type(const std::string& name) {
  static const std::set<std::string> names = words(
      "out auto break case char const continue default do double else enum extern float for "
      "goto if inline int long register restrict return short signed sizeof static struct "
      "switch typedef union unsigned void volatile while bool true false half uchar ushort uint "
      "ulong size_t ptrdiff_t intptr_t uintptr_t kernel global local private constant read_only "
      "write_only read_write complex imaginary event_t sampler_t image2d_t image3d_t");
  return names.count(name) > 0;
}

// OpenCL C's built-in functions and constants, by name.
bool builtin_function(const std::string& name) {
  static const std::set<std::string> names = words(
      "min max clamp mix step sign abs sqrt rsqrt cbrt exp exp2 exp10 expm1 log log2 log10 "
      "log1p pow pown powr fabs floor ceil round rint trunc fmod remainder fmin fmax fma mad "
      "sin cos tan asin acos atan atan2 sinh cosh tanh hypot select dot cross length distance "
      "normalize barrier floor_div floor_mod get_global_id get_local_id get_group_id "
      "get_global_size get_local_size get_num_groups get_work_dim vload4 vstore4 isnan isinf "
      "any all bitselect convert_int convert_float main printf degrees radians MAXFLOAT "
      "INFINITY NAN quad vec_step shuffle shuffle2 mad24 mul24 popcount clz rotate hadd rhadd "
      "mad_hi mad_sat add_sat sub_sat abs_diff upsample smoothstep fract frexp ldexp lgamma "
      "modf nan nextafter remquo sincos tgamma ilogb logb copysign fdim asinh acosh atanh erf "
      "erfc maxmag minmag isfinite isnormal signbit isequal isless isgreater prefetch mem_fence "
      "wait_group_events");
  return names.count(name) > 0;
}

// The generator's own index and buffer names, and its loop variables and private scalars: a
// letter and a number (i0, j1, r2, ...).
bool generator_name(const std::string& name) {
  for (const char* prefix : {"gid", "lid", "wg", "win", "priv", "tile", "acc", "blk_"})
    if (name.rfind(prefix, 0) == 0)
      return true;
  return name.size() > 1 && std::string("ijclrv").find(name[0]) != std::string::npos &&
         name.find_first_not_of("0123456789", 1) == std::string::npos;
}

// Families of OpenCL C built-ins and the macros of its headers (M_PI, INFINITY, FLT_MAX, ...),
// and names reserved to the implementation (__*).
bool builtin_family(const std::string& name) {
  for (const char* prefix :
       {"as_",     "convert_", "native_",     "half_",      "vload", "vstore",     "async_",
        "atomic_", "atom_",    "work_group_", "sub_group_", "get_",  "read_image", "write_image",
        "M_",      "FLT_",     "DBL_",        "HALF_",      "CL_",   "CLK_",       "CHAR_",
        "SCHAR_",  "UCHAR_",   "SHRT_",       "USHRT_",     "INT_",  "UINT_",      "LONG_",
        "ULONG_",  "FP_",      "HUGE_VAL"})
    if (name.rfind(prefix, 0) == 0)
      return true;
  return name.rfind("__", 0) == 0;
}

// Vector types: int2, float4, double16, ...
bool vector_type(const std::string& name) {
  for (const char* scalar : {"bool", "char", "uchar", "short", "ushort", "int", "uint", "long",
                             "ulong", "half", "float", "double"})
    for (const char* width : {"2", "3", "4", "8", "16"})
      if (name == std::string(scalar) + width)
        return true;
  return false;
}

} // namespace

// Names the generator itself uses or OpenCL C reserves (keywords, types, built-in functions).
bool is_reserved(const std::string& name) {
  return keyword_or_type(name) || builtin_function(name) || generator_name(name) ||
         builtin_family(name) || vector_type(name);
}

std::vector<std::string> user_fun_param_names(const UserFunDef& def, std::size_t count) {
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (std::size_t i = 0; i < count; ++i) {
    std::string name;
    if (i < def.param_names.size()) {
      // A parameter may not shadow a math function its body calls (all of them are reserved).
      name = sanitize(def.param_names[i]);
      if (is_reserved(name))
        name += "_";
    } else {
      name = i < 26 ? std::string(1, static_cast<char>('a' + i)) : cat("p", i);
    }
    while (taken.count(name))
      name += "_";
    taken.insert(name);
    names.push_back(name);
  }
  return names;
}

std::string kernel_identifier(const std::string& name) {
  std::string id;
  for (char c : name)
    id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  // OpenCL C's keywords, type names and built-in functions cannot name a kernel ("restrict",
  // "half", "sin", ...): the names is_reserved keeps from parameters.
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0])) || is_reserved(id))
    id = std::string("k_").append(id);
  return id;
}

} // namespace tessera::codegen
