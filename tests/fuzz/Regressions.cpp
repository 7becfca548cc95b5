// Library bugs that tessera_fuzz found, fixed in commits fbfbe20 (codegen/Emitter.cpp,
// core/Scalar.cpp), 39c96c7 and 1f5c2d9 (codegen/Emitter.cpp), and
// core/ScalarToC.cpp (i32 overflow). Each case is the shrunk reproducer,
// written with the DSL; the test case of the same name in tests/fuzz/test_regressions.cpp replays
// it and expects the recorded outcome.
#include "tests/fuzz/Reproducers.h"

#include "dsl/Dsl.h"

namespace tessera::fuzz {

namespace {

// toPrivate(MapLcl(0)(id)) in a map of a MapWrg(0)'s window (seed 3107, case 237), lowered by
// hand (MapSeq, ReduceSeq) or left to the default lowering.
Expr private_map_lcl_program(bool lowered) {
  Val x = input("x", Type::array(f32(), 8));
  Fun add = add_fun();
  Fun id = id_fun();
  auto sum = [&](Val init) { return lowered ? reduce_seq(add, init) : reduce(add, init); };
  Fun per_chunk = Fun([=](Val v) { return (v | to_private(map_lcl(0, id)) | sum(0.0f)).at(0); });
  return program({x}, x | pad(0, 1, clamp) | slide(2, 1) |
                          map_wrg(0, Fun([=](Val w) {
                                    return (w | split(2) |
                                            (lowered ? map_seq(per_chunk) : map(per_chunk)) |
                                            sum(0.0f))
                                        .at(0);
                                  })));
}

} // namespace

const std::vector<ReproducerCase>& regression_cases() {
  static const std::vector<ReproducerCase> cases = {
      {"codegen: different user functions that share a name keep their own bodies in the kernel",
       "user-fun-name-clash.json",
       "Two different user functions called \"f\" with the same argument kinds. The emitter "
       "used to key user functions by name and argument kinds, so the kernel defined the first "
       "body once and called it for both: the interpreter computed 2x+1, the kernel 4x. Helpers "
       "such as `auto scale = [](double k) { return user_fun(\"scale\", [k](auto a) { return "
       "a * k; }); }` produce exactly this.",
       "Val x = input(\"x\", Type::array(f32(), 8));\n"
       "Fun twice = user_fun(\"f\", [](auto a) { return a * 2.0; });\n"
       "Fun plus_one = user_fun(\"f\", [](auto a) { return a + 1.0; });\n"
       "program({x}, x | map_glb(0, twice >> plus_one));",
       [] {
         Val x = input("x", Type::array(f32(), 8));
         Fun twice = user_fun("f", [](auto a) { return a * 2.0; });
         Fun plus_one = user_fun("f", [](auto a) { return a + 1.0; });
         return program({x}, x | map_glb(0, twice >> plus_one));
       }},
      {"codegen: a MapGlb computing an intermediate inside a work-item's function is rejected",
       "map-glb-intermediate.json",
       "A MapGlb whose result is an argument of another computation inside a work-item's "
       "function (here MapGlb(0) inside MapGlb(1); the fuzzer also found MapGlb inside a "
       "top-level MapSeq). The emitter used to place the intermediate in private memory, and "
       "the inner MapGlb wrote only element gid0 of it, so the ReduceSeq read uninitialised "
       "elements. The map-glb rule produces such programs from a high-level stencil.",
       "Val x = input(\"x\", Type::array(f32(), 6));\n"
       "Fun halve = user_fun(\"halve\", [](auto a) { return a * 0.5; });\n"
       "program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map_glb(1, Fun([=](Val w) {\n"
       "  return (w | map_glb(0, halve) | reduce_seq(add_fun(), 0.0f)).at(0); })));",
       [] {
         Val x = input("x", Type::array(f32(), 6));
         Fun halve = user_fun("halve", [](auto a) { return a * 0.5; });
         Fun add = add_fun();
         return program({x},
                        x | pad(1, 1, clamp) | slide(3, 1) |
                            map_glb(1, Fun([=](Val w) {
                                      return (w | map_glb(0, halve) | reduce_seq(add, 0.0f)).at(0);
                                    })));
       },
       true, "REJECTED", "computed with MapGlb or MapWrg inside a work-item's function"},
      {"codegen: a MapWrg nested in a MapGlb is rejected", "map-wrg-in-map-glb.json",
       "MapGlb(0)(MapWrg(0)(MapLcl(0)(f))): the emitter used to reject MapGlb inside MapWrg but "
       "not MapWrg inside MapGlb; the kernel indexed the output with gid0, wg0 and lid0 together "
       "and wrote past its end (on PoCL this corrupted the host heap: \"corrupted size vs. "
       "prev_size\", abort). lower_default makes such programs from Map(MapWrg(MapLcl(f))), "
       "which the map-wrg-lcl rule produces.",
       "Val x = input(\"x\", array_of(f32(), {5, 4, 3}));\n"
       "Fun neg = user_fun(\"neg\", [](auto a) { return -a; });\n"
       "program({x}, x | map_glb(0, map_wrg(0, map_lcl(0, neg))));",
       [] {
         Val x = input("x", array_of(f32(), {5, 4, 3}));
         Fun neg = user_fun("neg", [](auto a) { return -a; });
         return program({x}, x | map_glb(0, map_wrg(0, map_lcl(0, neg))));
       },
       true, "REJECTED", "MapWrg(0) cannot be nested inside MapGlb"},
      {"codegen: an intermediate computed with MapWrg inside a MapWrg is rejected",
       "map-wrg-intermediate.json",
       "MapWrg(2) computing a tile that the work-group of an outer MapWrg(0) then reads (the "
       "fuzzer applied the map-wrg rule inside a toLocal). Each work-group along dimension 2 "
       "wrote only its own element of the tile, so the outer work-group read elements nobody "
       "wrote: 5 of 6 values wrong on PoCL. The emitter rejected MapWrg inside MapGlb, MapLcl or "
       "MapSeq, and an intermediate of MapWrg inside a work-item, but not this.",
       "Val x = input(\"x\", Type::array(f32(), 6));\n"
       "program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map_wrg(0, Fun([=](Val w) {\n"
       "  return (w | to_local(map_wrg(2, id_fun()))).at(1); })));",
       [] {
         Val x = input("x", Type::array(f32(), 6));
         Fun id = id_fun();
         return program(
             {x}, x | pad(1, 1, clamp) | slide(3, 1) |
                      map_wrg(0, Fun([=](Val w) { return (w | to_local(map_wrg(2, id))).at(1); })));
       },
       true, "REJECTED", "computed with MapWrg inside a MapWrg"},
      {"codegen: toPrivate of a MapLcl inside a MapSeq at work-group level is rejected",
       "private-map-lcl-in-map-seq.json",
       "toPrivate(MapLcl(d)(f)) in a MapSeq inside MapWrg: each work-item computes only its own "
       "elements of the MapLcl's result, so the private array that the ReduceSeq then reads "
       "whole held the others' elements unwritten (priv0[lid2] = ...; then priv0[0] and "
       "priv0[1] read). The emitter rejected toPrivate of a MapLcl only right inside the "
       "MapWrg, not inside a MapSeq or a Reduce there. Found by tessera_fuzz (seed 3107, case "
       "237: all 19 values wrong on PoCL and the H200), the stage-private and map-lcl rules.",
       "Val x = input(\"x\", Type::array(f32(), 8));\n"
       "Fun add = add_fun();\n"
       "program({x}, x | pad(0, 1, clamp) | slide(2, 1) | map_wrg(0, Fun([=](Val w) {\n"
       "  return (w | split(2) | map_seq(Fun([=](Val v) {\n"
       "    return (v | to_private(map_lcl(0, id_fun())) | reduce_seq(add, 0.0f)).at(0); }))\n"
       "    | reduce_seq(add, 0.0f)).at(0); })));",
       [] { return private_map_lcl_program(true); }, true, "REJECTED", "toPrivate of a MapLcl"},
      {"lowering: a MapLcl inside toPrivate becomes MapSeq (each work-item its own copy)",
       "private-map-lcl-legalized.json",
       "The program of the case above before its lowering (Map for MapSeq, Reduce for "
       "ReduceSeq): the legalisation (rewrite/Legalize.cpp) kept the MapLcl that the map-lcl "
       "rule had put inside a toPrivate, and the kernel computed wrong values (seed 3107, case "
       "237). It now demotes it to MapSeq, so the default lowering gives a kernel that matches "
       "the interpreter.",
       "Val x = input(\"x\", Type::array(f32(), 8));\n"
       "Fun add = add_fun();\n"
       "program({x}, x | pad(0, 1, clamp) | slide(2, 1) | map_wrg(0, Fun([=](Val w) {\n"
       "  return (w | split(2) | map(Fun([=](Val v) {\n"
       "    return (v | to_private(map_lcl(0, id_fun())) | reduce(add, 0.0f)).at(0); }))\n"
       "    | reduce(add, 0.0f)).at(0); })));",
       [] { return private_map_lcl_program(false); }, false},
      {"codegen: a constant boundary read twice in unrolled loops is right on PoCL",
       "pocl-guarded-read-twice.json",
       "A window of a constant-padded input read twice, once through sqrt(fabs(a) + 1) into a "
       "private array and once directly, in loops of 4 that PoCL unrolls: the kernel read "
       "`(i < 3) ? x[i] : 0.25f` in both, and PoCL 3.1's default work-group method (loopvec) "
       "lost the direct reads of the last window (11.15 computed as 8.05; right with "
       "POCL_WORK_GROUP_METHOD=loops or -cl-opt-disable, with or without restrict). The "
       "constant boundary's index is now clamped into the array inside the guard "
       "(codegen/View.cpp), which PoCL compiles right. Found by tessera_fuzz (seed 4003, case "
       "19).",
       "Val x = input(\"x\", Type::array(f32(), 3));\n"
       "Fun root = user_fun(\"root\", [](auto a) { return sqrt(fabs(a) + 1.0f); });\n"
       "Fun add = add_fun();\n"
       "program({x}, x | pad(2, 1, constant(0.25f)) | slide(4, 1) | map_seq_unroll(Fun([=](Val w) "
       "{\n"
       "  return (zip({w, w | map_seq(root)}) | map_seq(Fun([=](Val p) {\n"
       "    return add(p.get(0), p.get(1)); })) | reduce_seq(add, 0.0f)).at(0); })));",
       [] {
         Val x = input("x", Type::array(f32(), 3));
         Fun root = user_fun("root", [](auto a) { return sqrt(fabs(a) + 1.0f); });
         Fun add = add_fun();
         Fun plus = Fun([=](Val p) { return add(p.get(0), p.get(1)); });
         return program(
             {x},
             x | pad(2, 1, constant(0.25f)) | slide(4, 1) | map_seq_unroll(Fun([=](Val w) {
               return (zip({w, w | map_seq(root)}) | map_seq(plus) | reduce_seq(add, 0.0f)).at(0);
             })));
       }},
      {"codegen: the negation of a negative constant is valid OpenCL C (no --c)",
       "negated-negative-constant.json",
       "ScalarExpr::to_c (core/Scalar.cpp) used to print -(-0.5) as \"(--0.5f)\", which OpenCL C "
       "rejects (\"expression is not assignable\"): the kernel did not build. (Sym(-0.5) in a "
       "user function, or a program loaded from JSON.)",
       "Val x = input(\"x\", Type::array(f32(), 8));\n"
       "Fun f = user_fun(\"f\", [](auto a) { return a * -Sym(-0.5); });\n"
       "program({x}, x | map_glb(0, f));",
       [] {
         Val x = input("x", Type::array(f32(), 8));
         Fun f = user_fun("f", [](auto a) { return a * -Sym(-0.5); });
         return program({x}, x | map_glb(0, f));
       }},
      {"codegen: user functions and inputs named like OpenCL C keywords, types, built-ins or the "
       "generator's variables are renamed",
       "opencl-names.json",
       "The emitter used to rename only a short list of names: user functions called half, "
       "sign, tan, if, return, uint, get_global_id, r0, ... and inputs called half, if, const, "
       "r0, j0, ... were emitted as they are and the kernel did not build. (Names that still "
       "break a kernel are an open bug: tests/fuzz/KnownBugs.cpp.)",
       "Val a = input(\"half\", Type::array(f32(), 8));\n"
       "Val b = input(\"r0\", Type::array(f32(), 8));\n"
       "Fun h = user_fun(\"half\", [](auto v) { return v * 0.5; });\n"
       "Fun m = user_fun(\"sign\", [](auto v, auto w) { return v + w; });\n"
       "Fun g = user_fun(\"get_global_id\", [](auto v) { return v - 1.0; });\n"
       "program({a, b}, zip({a, b}) | map_glb(0, Fun([=](Val p) {\n"
       "  return g(m(h(p.get(0)), p.get(1))); })));",
       [] {
         Val a = input("half", Type::array(f32(), 8));
         Val b = input("r0", Type::array(f32(), 8));
         Fun h = user_fun("half", [](auto v) { return v * 0.5; });
         Fun m = user_fun("sign", [](auto v, auto w) { return v + w; });
         Fun g = user_fun("get_global_id", [](auto v) { return v - 1.0; });
         return program({a, b}, zip({a, b}) | map_glb(0, Fun([=](Val p) {
                                                        return g(m(h(p.get(0)), p.get(1)));
                                                      })));
       }},
      {"codegen: inputs whose names start with gid, lid or wg are renamed (no endless loop)",
       "input-name-prefix-loop.json",
       "Emitter::generate used to rename a reserved input name with `while (is_reserved(name) "
       "|| ...) name += \"_\";`, but is_reserved was true for every name that starts with gid, "
       "lid or wg, so the loop never ended and the name grew until the process ran out of "
       "memory. Inputs called gid, lidar, wgt, wg_data, ... hung generate_kernel. (The test "
       "kills the replay after 20 s.)",
       "Val x = input(\"lidar\", Type::array(f32(), 8));\n"
       "Val y = input(\"wg0\", Type::array(f32(), 8));\n"
       "Fun add = add_fun();\n"
       "program({x, y}, zip({x, y}) | map_glb(0, Fun([=](Val p) { return add(p.get(0), p.get(1)); "
       "})));",
       [] {
         Val x = input("lidar", Type::array(f32(), 8));
         Val y = input("wg0", Type::array(f32(), 8));
         Fun add = add_fun();
         return program(
             {x, y}, zip({x, y}) | map_glb(0, Fun([=](Val p) { return add(p.get(0), p.get(1)); })));
       }},
      {"codegen: user functions named like OpenCL C macros, vector types or built-ins, and inputs "
       "named like OpenCL C macros, are renamed",
       "opencl-macro-names.json",
       "codegen/Emitter.cpp, is_reserved() listed keywords, scalar types and some built-ins, but "
       "not the macros M_PI, INFINITY, NAN, MAXFLOAT, the vector types int2, float4, double2, "
       "nor as_float, native_sin, degrees, printf, main: such a user function or input was "
       "emitted under its own name and the kernel did not build on PoCL (\"expected "
       "identifier\", \"redefinition of 'double2' as different kind of symbol\", \"conflicting "
       "types for 'printf'\"). Found by tessera_fuzz (seed 1, cases 18, 41, 99, 267) once it "
       "stopped skipping these names; fixed in 39c96c7.",
       "Val x = input(\"NAN\", Type::array(f32(), 8));\n"
       "Fun pi = user_fun(\"M_PI\", [](auto a) { return a * 3.0; });\n"
       "Fun v = user_fun(\"int2\", [](auto a) { return a + 1.0; });\n"
       "Fun p = user_fun(\"printf\", [](auto a) { return a - 2.0; });\n"
       "program({x}, x | map_glb(0, pi >> v >> p));",
       [] {
         Val x = input("NAN", Type::array(f32(), 8));
         Fun pi = user_fun("M_PI", [](auto a) { return a * 3.0; });
         Fun v = user_fun("int2", [](auto a) { return a + 1.0; });
         Fun p = user_fun("printf", [](auto a) { return a - 2.0; });
         return program({x}, x | map_glb(0, pi >> v >> p));
       }},
      {"codegen: a MapGlb inside a MapSeqUnroll is rejected", "map-glb-in-map-seq-unroll.json",
       "Emitter::sequential_loop did not count an unrolled (or single-iteration) sequential map "
       "as being inside a work-item, so a MapGlb in it was accepted and the kernel computed "
       "garbage. The stage-private and map-glb rules produce it. Found by tessera_fuzz (seed 1, "
       "case 40); fixed in 1f5c2d9.",
       "Val x = input(\"x\", array_of(f32(), {3, 4}));\n"
       "Fun neg = user_fun(\"neg\", [](auto a) { return -a; });\n"
       "program({x}, x | map_seq_unroll(map_glb(0, neg)));",
       [] {
         Val x = input("x", array_of(f32(), {3, 4}));
         Fun neg = user_fun("neg", [](auto a) { return -a; });
         return program({x}, x | map_seq_unroll(map_glb(0, neg)));
       },
       true, "REJECTED", "MapGlb(0) cannot be nested inside"},
      {"codegen: i32 arithmetic wraps in the kernel as in the interpreter (no signed overflow)",
       "i32-overflow-wraps.json",
       "The interpreter wraps i32 +, - and * (two's complement, as the scalar language "
       "defines); the kernel printed them as C's signed operators, whose overflow is undefined, "
       "and the compiler used it: b * b is non-negative when it does not overflow, so (b * b) / 3 "
       "became an unsigned division and the kernel returned values near 1.4e9 where the "
       "interpreter had -2.6e7. Found by tessera_fuzz (seed 1411, case 876).",
       "Val x = input(\"x\", array_of(i32(), {4, 6}));\n"
       "Fun fifth = user_fun(\"fifth\", [](auto a) { return a * a * a * a * a; });\n"
       "Fun square_third = user_fun(\"square_third\", [](auto b) { return b * b / 3; });\n"
       "program({x}, x | map_glb(1, map_glb(0, fifth >> square_third)));",
       [] {
         Val x = input("x", array_of(i32(), {4, 6}));
         Fun fifth = user_fun("fifth", [](auto a) { return a * a * a * a * a; });
         Fun square_third = user_fun("square_third", [](auto b) { return b * b / 3; });
         return program({x}, x | map_glb(1, map_glb(0, fifth >> square_third)));
       }},
  };
  return cases;
}

} // namespace tessera::fuzz
