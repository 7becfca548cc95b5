#include "peers/Taps.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "core/Data.h"
#include "core/Error.h"
#include "primitives/Interpreter.h"
#include "stencils/Catalog.h"

namespace tessera::peers {

namespace {

constexpr int kReach = 4; // the largest tap offset looked for

std::size_t cells_of(const Extents3& e) {
  return static_cast<std::size_t>(e[0] * e[1] * e[2]);
}

std::vector<double> run(const Expr& program, const std::vector<std::vector<int64_t>>& shapes,
                        const std::vector<std::vector<double>>& values) {
  std::vector<Data> inputs;
  for (std::size_t m = 0; m < shapes.size(); ++m)
    inputs.push_back(Data::from_flat(ScalarKind::F32, shapes[m], values[m]));
  return evaluate(program, inputs).flatten();
}

Scale scale_of(int64_t in, int64_t out) {
  if (in == out)
    return Scale::Same;
  if (in >= 2 * out && in <= 2 * out + 1)
    return Scale::Finer;
  if (out >= 2 * in && out <= 2 * in + 1)
    return Scale::Coarser;
  user_error(cat("an input of extent ", in, " beside an output of ", out,
                 ": the peers know the same grid, and grids twice as fine or as coarse"));
}

} // namespace

double LinearStencil::bytes_per_sweep() const {
  double cells = static_cast<double>(out_cells());
  for (const auto& e : in)
    cells += static_cast<double>(cells_of(e));
  return 4.0 * cells;
}

EdgeRead edge_read(Boundary::Kind edge, int64_t i, int64_t n) {
  if (i >= 0 && i < n)
    return {i, 1.0f};
  switch (edge) {
  case Boundary::Clamp:
    return {std::min(std::max<int64_t>(i, 0), n - 1), 1.0f};
  case Boundary::Mirror:
    return {i < 0 ? -1 - i : 2 * n - 1 - i, 1.0f};
  case Boundary::Antisymmetric:
    return {i < 0 ? -1 - i : 2 * n - 1 - i, -1.0f};
  case Boundary::Wrap:
    return {i < 0 ? i + n : i - n, 1.0f};
  case Boundary::Constant:
  case Boundary::Fixed:
    break;
  }
  user_error("the peers handle clamp, mirror, antisymmetric and wrap boundaries");
}

Extents3 extents3(const std::vector<int64_t>& extents) {
  Extents3 e{1, 1, 1};
  std::copy(extents.begin(), extents.end(), e.begin() + (3 - extents.size()));
  return e;
}

std::vector<float> apply_taps(const LinearStencil& s, const std::vector<std::vector<float>>& x) {
  std::vector<float> out(s.out_cells());
  const auto& e = s.out;
  for (int64_t k = 0; k < e[0]; ++k)
    for (int64_t j = 0; j < e[1]; ++j)
      for (int64_t i = 0; i < e[2]; ++i) {
        const auto& c = s.classes[static_cast<std::size_t>(s.class_of(k, j, i))];
        float sum = c.bias;
        const int64_t p[3] = {k, j, i};
        for (const auto& t : c.taps) {
          const auto m = static_cast<std::size_t>(t.input);
          const auto& n = s.in[m];
          float sign = 1;
          int64_t flat = 0;
          for (int d = 0; d < 3; ++d) {
            auto r = edge_read(s.edge, base_index(s.scale[m], p[d]) + t.offset[d], n[d]);
            sign *= r.sign;
            flat = flat * n[d] + r.index;
          }
          sum += t.weight * sign * x[m][static_cast<std::size_t>(flat)];
        }
        out[(k * e[1] + j) * e[2] + i] = sum;
      }
  return out;
}

LinearStencil linear_operator(const OperatorAt& op, const std::vector<int64_t>& extents) {
  LinearStencil s{op.name, op.dims, 0, op.edge, extents3(op.output(extents))};
  for (const auto& e : op.inputs(extents))
    s.in.push_back(extents3(e));
  // The taps come from a small grid: 16 points a side (64 in 1-D) keep the impulse at the centre
  // of every input far from its boundary.
  const std::vector<int64_t> small(static_cast<std::size_t>(op.dims), op.dims == 1 ? 64 : 16);
  const Expr program = op.build(small, extents);
  const auto shapes = op.inputs(small);
  const Extents3 out = extents3(op.output(small));
  std::vector<Extents3> in;
  for (const auto& shape : shapes)
    in.push_back(extents3(shape));
  for (std::size_t m = 0; m < in.size(); ++m) {
    s.scale.push_back(Scale::Same);
    for (int d = 3 - op.dims; d < 3; ++d) {
      Scale sc = scale_of(in[m][d], out[d]);
      if (d > 3 - op.dims && sc != s.scale[m])
        user_error(cat(op.name, ": input ", m, " is scaled differently along its axes"));
      s.scale[m] = sc;
    }
  }
  auto zeros = [&] {
    std::vector<std::vector<double>> v;
    for (const auto& e : in)
      v.emplace_back(cells_of(e), 0.0);
    return v;
  };
  // Parity classes where the output has even extents that may tell them apart.
  s.parity = true;
  std::vector<TapClass> classes(8);
  const auto bias = run(program, shapes, zeros());
  auto flat_out = [&](int64_t k, int64_t j, int64_t i) {
    return static_cast<std::size_t>((k * out[1] + j) * out[2] + i);
  };
  std::vector<bool> seen(8, false);
  for (int64_t k = 0; k < out[0]; ++k)
    for (int64_t j = 0; j < out[1]; ++j)
      for (int64_t i = 0; i < out[2]; ++i) {
        int c = s.class_of(k, j, i);
        if (!seen[static_cast<std::size_t>(c)]) {
          classes[static_cast<std::size_t>(c)].bias = static_cast<float>(bias[flat_out(k, j, i)]);
          seen[static_cast<std::size_t>(c)] = true;
        }
      }
  std::map<std::tuple<int, int, std::array<int, 3>>, double> weights;
  // The weight that output (k, j, i) gives input m at the impulse q.
  auto record = [&](std::size_t m, const Extents3& q, int64_t k, int64_t j, int64_t i,
                    double value) {
    const int64_t p[3] = {k, j, i};
    std::array<int, 3> o{};
    bool near = true;
    for (int d = 0; d < 3; ++d) {
      int64_t off = q[d] - base_index(s.scale[m], p[d]);
      near = near && std::abs(off) <= kReach;
      o[d] = static_cast<int>(off);
    }
    int c = s.class_of(k, j, i);
    double w = value - classes[static_cast<std::size_t>(c)].bias;
    if (!near) {
      if (w != 0)
        user_error(cat(op.name, ": a read farther than ", kReach, " points"));
      return;
    }
    auto [it, fresh] = weights.emplace(std::make_tuple(c, static_cast<int>(m), o), w);
    if (!fresh && std::fabs(it->second - w) > 1e-6 * std::max(1.0, std::fabs(w)))
      user_error(cat(op.name, ": not a linear stencil in its inputs (two outputs of one "
                              "class weigh the same offset differently)"));
  };
  // An output of one parity class sees the offsets of one parity from one impulse (two on a
  // finer input, read at 2p): impulses at the corners of a block of 2^d (4^d) points at the
  // centre show every class every offset.
  for (std::size_t m = 0; m < in.size(); ++m) {
    const int side = s.scale[m] == Scale::Finer ? 4 : 2;
    int corners = 1;
    for (int d = 0; d < op.dims; ++d)
      corners *= side;
    for (int corner = 0; corner < corners; ++corner) {
      auto impulse = zeros();
      Extents3 q{in[m][0] / 2, in[m][1] / 2, in[m][2] / 2};
      for (int d = 0, rest = corner; d < op.dims; ++d, rest /= side)
        q[static_cast<std::size_t>(2 - d)] += rest % side;
      impulse[m][static_cast<std::size_t>((q[0] * in[m][1] + q[1]) * in[m][2] + q[2])] = 1.0;
      auto response = run(program, shapes, impulse);
      for (int64_t k = 0; k < out[0]; ++k)
        for (int64_t j = 0; j < out[1]; ++j)
          for (int64_t i = 0; i < out[2]; ++i)
            record(m, q, k, j, i, response[flat_out(k, j, i)]);
    }
  }
  for (const auto& [key, w] : weights)
    if (w != 0) {
      const auto& [c, m, o] = key;
      classes[static_cast<std::size_t>(c)].taps.push_back({o, static_cast<float>(w), m});
      for (int d = 0; d < 3; ++d)
        s.radius = std::max(s.radius, std::abs(o[d]));
    }
  // Classes of parities that the small grid lacks (k odd in 2-D) never occur: as their twin.
  for (int c = 0; c < 8; ++c)
    if (!seen[static_cast<std::size_t>(c)])
      classes[static_cast<std::size_t>(c)] =
          classes[static_cast<std::size_t>(c & ((1 << op.dims) - 1))];
  // One class where all eight agree.
  auto same = [](const TapClass& a, const TapClass& b) {
    if (a.bias != b.bias || a.taps.size() != b.taps.size())
      return false;
    for (std::size_t t = 0; t < a.taps.size(); ++t)
      if (a.taps[t].offset != b.taps[t].offset || a.taps[t].input != b.taps[t].input ||
          a.taps[t].weight != b.taps[t].weight)
        return false;
    return true;
  };
  s.parity = !std::all_of(classes.begin(), classes.end(),
                          [&](const TapClass& c) { return same(c, classes[0]); });
  if (!s.parity)
    classes.resize(1);
  s.classes = classes;
  // The taps must reproduce the interpreter everywhere, boundary included, on random data.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<std::vector<float>> x;
  std::vector<std::vector<double>> xd;
  for (const auto& e : in) {
    x.emplace_back(cells_of(e));
    for (auto& v : x.back())
      v = dist(rng);
    xd.emplace_back(x.back().begin(), x.back().end());
  }
  LinearStencil probe = s;
  probe.out = out;
  probe.in = in;
  auto expected = run(program, shapes, xd);
  auto got = apply_taps(probe, x);
  for (std::size_t p = 0; p < got.size(); ++p)
    if (std::fabs(got[p] - expected[p]) > 1e-4 * std::max(1.0, std::fabs(expected[p])))
      user_error(cat(op.name, ": not a linear stencil with a ", Boundary{op.edge, {}}.to_string(),
                     " boundary (its taps give ", got[p], " where the interpreter gives ",
                     expected[p], " at cell ", p, ")"));
  return s;
}

OperatorAt catalog_operator(const stencils::StencilInfo& info) {
  if (info.inputs != 1)
    user_error(cat(info.name, ": the peers handle single-input stencils, it has ", info.inputs));
  auto build = info.build;
  return {info.name,
          info.dims,
          Boundary::Clamp,
          [build](const std::vector<int64_t>& e, const std::vector<int64_t>&) {
            return build(std::vector<ArithExpr>(e.begin(), e.end()));
          },
          [](const std::vector<int64_t>& e) { return std::vector<std::vector<int64_t>>{e}; },
          [](const std::vector<int64_t>& e) { return e; }};
}

} // namespace tessera::peers
