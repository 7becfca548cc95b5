#include "tests/fuzz/FuzzProgram.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "core/Error.h"
#include "dsl/Dsl.h"
#include "rewrite/Normalize.h"
#include "tests/fuzz/FnFactory.h"
#include "tests/fuzz/RecipeKinds.h"
#include "tests/fuzz/Reproducers.h"

namespace tessera::fuzz {

namespace {

ScalarKind primary_kind(const std::vector<ScalarKind>& kinds) {
  bool f64 = false, f32 = false;
  for (auto k : kinds) {
    f64 |= k == ScalarKind::F64;
    f32 |= k == ScalarKind::F32;
  }
  return f64 ? ScalarKind::F64 : f32 ? ScalarKind::F32 : ScalarKind::I32;
}

Boundary boundary_for(int b, ScalarKind kind) {
  switch (b % 5) {
  case 0:
    return clamp;
  case 1:
    return mirror;
  case 2:
    return wrap;
  case 4: // the inputs are f32, f64 or i32: all can be negated
    return antisymmetric;
  default:
    if (kind == ScalarKind::I32)
      return constant(3);
    if (kind == ScalarKind::F64)
      return constant(-0.5);
    return constant(0.25f);
  }
}

Val zero_of(ScalarKind kind) {
  if (kind == ScalarKind::I32)
    return Val(0);
  if (kind == ScalarKind::F64)
    return Val(0.0);
  return Val(0.0f);
}
Val lowest_of(ScalarKind kind) {
  if (kind == ScalarKind::I32)
    return Val(-1000000);
  if (kind == ScalarKind::F64)
    return Val(-1000.0);
  return Val(-1000.0f);
}

// A value with a bound on its magnitude.
struct Bounded {
  Val v;
  double bound;
};

class Builder {
public:
  explicit Builder(const Recipe& r) : r_(r), fns_(r), d_(r.dims) {}

  Expr build() {
    std::vector<ArithExpr> extents;
    for (int i = 0; i < d_; ++i)
      extents.push_back(r_.size_mode == 0 ? ArithExpr(r_.shape.at(static_cast<std::size_t>(i)))
                                          : size(cat("N", i)));
    primary_ = primary_kind(r_.kinds);
    std::vector<Val> inputs;
    for (std::size_t k = 0; k < r_.kinds.size(); ++k)
      inputs.push_back(input(fns_.input_name(k), array_of(Type::scalar(r_.kinds[k]), extents)));
    bool windowed = r_.left + r_.right > 0;
    std::vector<Val> comps;
    std::vector<double> bounds;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      Val v = prep(inputs[k], r_.kinds[k]);
      if (windowed && (k == 0 || r_.windows_for_all))
        v = window(v, r_.kinds[k]);
      comps.push_back(v);
    }
    if (r_.generate) {
      std::vector<ArithExpr> shape = comps[0].type().shape();
      shape.resize(static_cast<std::size_t>(d_));
      Val g = generate_grid(shape);
      if (windowed && r_.windows_for_all)
        g = window(g, g.type().innermost().scalar_kind());
      comps.push_back(g);
    }
    auto compute = [&]() -> Val {
      if (comps.size() == 1)
        return comps[0] | map_nd(d_, Fun([this](Val e) { return component(e, 0).v; }));
      std::size_t m = comps.size();
      return zip_nd(d_, comps) |
             map_nd(d_, Fun([this, m](Val t) {
                      std::vector<Bounded> parts;
                      for (std::size_t i = 0; i < m; ++i)
                        parts.push_back(component(t.get(static_cast<int>(i)), i));
                      return combine(parts);
                    }));
    };
    Val out = post(compute());
    if (weights_)
      inputs.push_back(*weights_); // read by weighted_sum (WindowWeightedInput)
    Expr p = program(inputs, out);
    return r_.normalize ? rewrite::beta_normalize(p) : p;
  }

private:
  double input_bound(ScalarKind kind) const { return kind == ScalarKind::I32 ? 100 : 1; }

  Val window(Val v, ScalarKind kind) {
    return v | pad_nd(d_, r_.left, r_.right, boundary_for(r_.boundary, kind)) |
           slide_nd(d_, r_.left + r_.right + 1, 1);
  }

  int64_t outer_extent(const Val& v) const {
    auto c = v.type().length().as_constant();
    return c ? *c : 0;
  }

  // A divisor of n in [2, n) if there is one, else 0.
  int64_t divisor(int64_t n) {
    std::vector<int64_t> ds;
    for (int64_t k = 2; k < n && k <= 8; ++k)
      if (n % k == 0)
        ds.push_back(k);
    if (ds.empty())
      return 0;
    return ds[static_cast<std::size_t>(fns_.pick(0, static_cast<int>(ds.size()) - 1))];
  }

  Val prep(Val v, ScalarKind kind) {
    // The next of the first four kinds (recipes saved before antisymmetric keep their meaning).
    Boundary b2 = boundary_for((r_.boundary + 1) % 4, kind);
    switch (r_.prep) {
    case PrepSplitJoin: {
      int64_t k = divisor(outer_extent(v));
      return k ? v | split(k) | join() : v;
    }
    case PrepTransposeTwice:
      return d_ >= 2 ? v | transpose() | transpose() : v;
    case PrepTranspose:
      return d_ >= 2 ? v | transpose() : v;
    case PrepDropPad:
      return v | drop_nd(d_, 1, 1) | pad_nd(d_, 1, 1, b2);
    case PrepPadDrop:
      return v | pad_nd(d_, 2, 1, b2) | drop_nd(d_, 1, 2);
    case PrepIterateLayout:
      if (d_ == 2)
        return v | iterate(2, transpose());
      return v | iterate(2, pad_nd(d_, 1, 0, b2) >> drop_nd(d_, 0, 1));
    case PrepMap: {
      auto [g, bound] = fns_.function("pre", kind, {kind}, {input_bound(kind)});
      // The stencil reads the mapped values: keep them within the input's bound.
      if (kind == ScalarKind::I32)
        return v | map_nd(d_, g);
      return v | map_nd(d_, g >> fns_.scale(1.0 / std::max(1.0, bound)));
    }
    case PrepIterateShift:
      return v | iterate(2, pad_nd(d_, 1, 0, b2) >> drop_nd(d_, 0, 1));
    default:
      return v;
    }
  }

  Val generate_grid(const std::vector<ArithExpr>& shape) {
    bool as_int = primary_ == ScalarKind::I32 || fns_.pick(0, 1) == 0;
    std::vector<ScalarKind> idx(static_cast<std::size_t>(d_), ScalarKind::I32);
    ScalarExpr body;
    if (as_int) {
      // The red/black colour of the point.
      Sym s(ScalarExpr::param(0));
      for (int i = 1; i < d_; ++i)
        s = s + Sym(ScalarExpr::param(i));
      body = (s % 2).expr();
    } else {
      Sym s(ScalarExpr::param(0));
      for (int i = 1; i < d_; ++i)
        s = s * (2 * i + 1) + Sym(ScalarExpr::param(i));
      body = (cast(ScalarKind::F32, s % 11) * 0.125).expr();
    }
    Fun f = detail::make_user_fun_value(fns_.name("colour"), d_, {}, body);
    std::vector<Expr> params;
    for (int i = 0; i < d_; ++i)
      params.push_back(make_param(cat("i", i)));
    Expr grid = make_call(f.build(std::vector<Type>(static_cast<std::size_t>(d_), i32())), params);
    for (int i = d_ - 1; i >= 0; --i)
      grid = make_call(make_generate(shape[static_cast<std::size_t>(i)],
                                     make_lambda({params[static_cast<std::size_t>(i)]}, grid)),
                       {});
    return Val(grid, array_of(as_int ? i32() : f32(), shape));
  }

  // The scalar computed from one zip component: the component itself, or a function of its
  // neighbourhood.
  Bounded component(Val c, std::size_t index) {
    ScalarKind kind = c.type().innermost().scalar_kind();
    if (c.type().is_scalar())
      return {c, kind == ScalarKind::I32 ? 100 : 1.25};
    // Recipes saved before the new-notation families keep their functions.
    int families =
        r_.window_fn < kClassicWindowFunctions ? kClassicWindowFunctions : kWindowFunctions;
    int family = (r_.window_fn + 3 * static_cast<int>(index)) % families;
    if (family >= kClassicWindowFunctions)
      return new_notation(c, kind, family);
    return neighbourhood(c, kind, family);
  }

  Bounded mean(Val s, ScalarKind kind, double bound, int64_t count) {
    if (kind == ScalarKind::I32)
      return {s, bound};
    return {fns_.scale(1.0 / static_cast<double>(count))(s), bound / static_cast<double>(count)};
  }

  Bounded neighbourhood(Val w, ScalarKind kind, int family) {
    const int side = r_.left + r_.right + 1;
    int64_t count = 1;
    for (int i = 0; i < d_; ++i)
      count *= side;
    const double in = input_bound(kind);
    Val flat = w | join_nd(d_);
    switch (family) {
    case 0:
      return mean((flat | reduce(fns_.add(), zero_of(kind))).at(0), kind, in * count, count);
    case 1: {
      int p = fns_.pick(1, static_cast<int>(std::min<int64_t>(5, count)));
      std::vector<Val> args;
      for (int i = 0; i < p; ++i) {
        Val v = w;
        for (int dd = 0; dd < d_; ++dd)
          v = v.at(fns_.pick(0, side - 1));
        args.push_back(v);
      }
      auto [f, bound] = fns_.function("pts", kind, std::vector<ScalarKind>(args.size(), kind),
                                      std::vector<double>(args.size(), in));
      return {f.apply(args), bound};
    }
    case 2:
      return {(flat | reduce(fns_.max(), lowest_of(kind))).at(0), in};
    case 3: {
      auto [g, bound] = fns_.function("elem", kind, {kind}, {in});
      return mean((flat | map(g) | reduce(fns_.add(), zero_of(kind))).at(0), kind, bound * count,
                  count);
    }
    case 4: {
      int k = fns_.pick(1, 3);
      double bound = kind == ScalarKind::I32 ? std::max(in, 101.0) : std::max(in, 1.0);
      return mean(
          (flat | iterate(k, map(fns_.step(kind))) | reduce(fns_.add(), zero_of(kind))).at(0), kind,
          bound * count, count);
    }
    case 5: {
      if (count < 2)
        return {flat.at(0), in};
      Val kept = count >= 3 ? flat | drop(1, 1) : flat | drop(1, 0);
      return {(kept | reduce(fns_.fold(kind), zero_of(kind))).at(0),
              kind == ScalarKind::I32 ? 10007 : 2 * in};
    }
    case 6: {
      int64_t c = divisor(count);
      if (c == 0)
        c = count;
      Fun add = fns_.add();
      Val zero = zero_of(kind);
      Val sums = flat | split(c) |
                 map(Fun([add, zero](Val chunk) { return (chunk | reduce(add, zero)).at(0); }));
      return {(sums | reduce(fns_.max(), lowest_of(kind))).at(0), in * c};
    }
    case 7: {
      Val src = d_ >= 2 ? w | transpose() | join_nd(d_) : flat;
      return {(src | reduce(fns_.fold(kind), zero_of(kind))).at(0),
              kind == ScalarKind::I32 ? 10007 : 2 * in};
    }
    case 8: {
      Val v = w;
      for (int dd = 0; dd < d_; ++dd)
        v = v.at(r_.left);
      auto [g, bound] = fns_.function("centre", kind, {kind}, {in});
      return {g(v), bound};
    }
    case 9: {
      if (count < 2)
        return {flat.at(0), in};
      Fun fold = fns_.fold(kind);
      Val zero = zero_of(kind);
      Val pairs = flat | slide(2, 1) |
                  map(Fun([fold, zero](Val p) { return (p | reduce(fold, zero)).at(0); }));
      double bound = kind == ScalarKind::I32 ? 10007 : 2 * in;
      return mean((pairs | reduce(fns_.add(), zero_of(kind))).at(0), kind, bound * (count - 1),
                  count - 1);
    }
    default: {
      auto [g, gb] = fns_.function("elem", kind, {kind}, {in});
      auto [pair, pb] = fns_.function("pair", kind, {kind, kind}, {in, gb});
      Fun pf = pair;
      Val zipped =
          zip({flat, flat | map(g)}) | map(Fun([pf](Val t) { return pf(t.get(0), t.get(1)); }));
      return mean((zipped | reduce(fns_.add(), zero_of(kind))).at(0), kind, pb * count, count);
    }
    }
  }

  Val combine(const std::vector<Bounded>& parts) {
    std::vector<ScalarKind> kinds;
    std::vector<double> bounds;
    std::vector<Val> args;
    for (const auto& p : parts) {
      kinds.push_back(p.v.type().scalar_kind());
      bounds.push_back(p.bound);
      args.push_back(p.v);
    }
    auto [f, bound] = fns_.function("combine", primary_, kinds, bounds);
    result_bound_ = bound;
    return f.apply(args);
  }

  Val post(Val out) {
    switch (r_.post) {
    case PostMap: {
      ScalarKind kind = out.type().innermost().scalar_kind();
      auto [g, bound] = fns_.function("post", kind, {kind}, {result_bound_});
      (void)bound;
      return out | map_nd(d_, g);
    }
    case PostTranspose:
      return d_ >= 2 ? out | transpose() : out;
    case PostSplitJoin: {
      int64_t k = divisor(outer_extent(out));
      return k ? out | split(k) | join() : out;
    }
    case PostIterate: {
      ScalarKind kind = out.type().innermost().scalar_kind();
      return out | iterate(fns_.pick(1, 3), map_nd(d_, fns_.step(kind)));
    }
    case PostDrop:
      return out | drop_nd(d_, 1, 0);
    case PostSteps:
    case PostIterateStencil: {
      ScalarKind kind = out.type().innermost().scalar_kind();
      const int d = d_, r = d_ == 1 ? fns_.pick(1, 2) : 1;
      double count = 1;
      for (int i = 0; i < d; ++i)
        count *= 2 * r + 1;
      Fun add = fns_.add(), max = fns_.max(), scale = fns_.scale(1.0 / count);
      Val zero = zero_of(kind), lowest = lowest_of(kind);
      // Values stay bounded: the mean of the neighbourhood, or its maximum for integers.
      Fun f = kind == ScalarKind::I32
                  ? Fun([=](Val w) { return (w | join_nd(d) | reduce(max, lowest)).at(0); })
                  : Fun([=](Val w) { return scale((w | join_nd(d) | reduce(add, zero)).at(0)); });
      Boundary b = boundary_for(r_.boundary, kind);
      if (r_.post == PostIterateStencil)
        return out | iterate(fns_.pick(2, 4),
                             pad_nd(d, r, r, b) >> slide_nd(d, 2 * r + 1, 1) >> map_nd(d, f));
      for (int k = fns_.pick(2, 3); k > 0; --k)
        out = out | pad_nd(d, r, r, b) | slide_nd(d, 2 * r + 1, 1) | map_nd(d, f);
      return out;
    }
    case PostReshape: {
      if (d_ >= 2)
        return out | join();
      int64_t k = divisor(outer_extent(out));
      return k ? out | split(k) : out;
    }
    default:
      return out;
    }
  }

  // The new notation on a neighbourhood: inline arithmetic on values, weighted_sum with
  // constant weights or with the weights of an extra program input (one per point).
  Bounded new_notation(Val w, ScalarKind kind, int family) {
    std::vector<Val> points;
    collect_points(w, points);
    const double in = input_bound(kind);
    const auto count = static_cast<int64_t>(points.size());
    if (family == WindowInline)
      return inline_arith(points, kind);
    if (family == WindowWeightedConstant) {
      std::vector<double> weights;
      double sum = 0;
      for (int64_t k = 0; k < count; ++k) {
        weights.push_back(kind == ScalarKind::I32 ? fns_.pick(-2, 2) : fns_.pick(-4, 4) * 0.5);
        sum += std::fabs(weights.back());
      }
      if (sum == 0) {
        weights[0] = 1;
        sum = 1;
      }
      return mean(weighted_sum(w, weights), kind, in * sum, count);
    }
    if (!weights_ || weights_->type().innermost().scalar_kind() != kind ||
        weights_->type().length().as_constant() != count) {
      if (weights_) // one weights input per program: another window reads it as inline terms
        return inline_arith(points, kind);
      weights_ = input(fns_.input_name(r_.kinds.size()), Type::array(Type::scalar(kind), count));
    }
    return mean(weighted_sum(w, *weights_), kind, in * in * static_cast<double>(count), count);
  }

  void collect_points(const Val& w, std::vector<Val>& out) {
    if (!w.type().is_array()) {
      out.push_back(w);
      return;
    }
    auto n = w.type().length().as_constant();
    for (int64_t i = 0; n && i < *n; ++i)
      collect_points(w.at(i), out);
  }

  // A random expression of up to five points written with the operators on values.
  Bounded inline_arith(const std::vector<Val>& points, ScalarKind kind) {
    const double in = input_bound(kind);
    auto point = [&] {
      return points[static_cast<std::size_t>(fns_.pick(0, static_cast<int>(points.size()) - 1))];
    };
    Val t = point();
    double bound = in;
    for (int k = fns_.pick(1, 4); k > 0; --k) {
      Val p = point();
      switch (fns_.pick(0, 4)) {
      case 0:
        t = kind == ScalarKind::I32 ? t + p : t * 0.5 + p * 0.5;
        bound = kind == ScalarKind::I32 ? bound + in : 0.5 * (bound + in);
        break;
      case 1:
        t = kind == ScalarKind::I32 ? t - p * 2 : t - p * 0.25;
        bound += kind == ScalarKind::I32 ? 2 * in : 0.25 * in;
        break;
      case 2:
        t = select(p > t && t != p, p, t);
        bound = std::max(bound, in);
        break;
      case 3:
        t = kind == ScalarKind::I32 ? (t * 3) % 101 + p : fmin(t, p) + 0.125;
        bound = kind == ScalarKind::I32 ? 101 + in : std::max(bound, in) + 0.125;
        break;
      default:
        t = kind == ScalarKind::I32 ? -t + p : fabs(t) * 0.5 - p * 0.5;
        bound = kind == ScalarKind::I32 ? bound + in : 0.5 * (bound + in);
        break;
      }
    }
    if (kind != ScalarKind::I32 && fns_.pick(0, 3) == 0) {
      t = sqrt(t * t + 1.0) - 1.0;
      bound = bound + 1;
    }
    return {t, bound};
  }

  const Recipe& r_;
  FnFactory fns_;
  std::optional<Val> weights_; // the weights input of WindowWeightedInput
  int d_;
  ScalarKind primary_ = ScalarKind::F32;
  double result_bound_ = 1;
};

} // namespace

Expr build_program(const Recipe& recipe) {
  return Builder(recipe).build();
}

void count_kinds(const Expr& e, std::map<std::string, std::size_t>& counts) {
  std::string name = kind_name(e->kind);
  if (e->kind == NodeKind::Map)
    name = map_kind_name(e->map_kind);
  if (e->kind == NodeKind::Reduce)
    name = reduce_kind_name(e->reduce_kind);
  if (e->kind == NodeKind::Pad)
    name += " " + e->boundary.to_string().substr(0, e->boundary.to_string().find('('));
  ++counts[name];
  for (const auto& c : e->children)
    count_kinds(c, counts);
}

} // namespace tessera::fuzz
