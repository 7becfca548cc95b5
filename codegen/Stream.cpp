// Streaming: MapSeq(f) over Slide(n, 1) windows. The work-item marches along the array keeping
// the current window in private memory and rotating it, so that each element is loaded once:
//   win = x[0 .. n-2];  for i: win[n-1] = x[i+n-1]; out[i] = f(win); win[e] = win[e+1]
// Over zipped inputs (stream-nd of a smoother with a right-hand side) every windowed component
// gets its own rotating window and a plain component is read at the step's index:
//   MapSeq(f) $ Zip(Slide(n,1) $ a, b)   ->   out[i] = f({win_a, b[i]})
#include <optional>

#include "codegen/Emitter.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"

namespace tessera::codegen {

namespace {

// A window of Slide(n, 1) that fits in registers: n windows' worth of `scalars` values each.
struct StreamedWindow {
  View source; // the array the windows slide over
  Type window; // [element]_n
  int64_t n = 0, scalars = 0;
};

// A window of more than this many values per element is not kept in private memory whole (n
// of them would be); the partial sums keep one element and n sums (codegen/StreamSums.cpp).
constexpr int64_t kMaxRotatedScalars = 64;

std::optional<StreamedWindow> stream_window(const View& view, const Type& windows,
                                            int64_t max_scalars) {
  if (view->kind != ViewKind::Slide || view->a != ArithExpr(1) || !windows.is_array())
    return std::nullopt;
  const Type& window = windows.element();
  const Type& element = window.element();
  auto n = window.length().as_constant();
  auto c = element.scalar_count().as_constant();
  auto count = windows.length().as_constant();
  if (!n || !c || *n < 2 || *c > max_scalars || !element.innermost().is_scalar() ||
      (count && *count < 2))
    return std::nullopt;
  return StreamedWindow{view->children.front(), window, *n, *c};
}

// The index paths of the scalars of one element of `type`, in row-major order.
std::vector<Path> scalar_paths(const Type& type) {
  std::vector<Path> scalars{{}};
  for (const auto& extent : type.shape()) {
    std::vector<Path> next;
    for (const auto& p : scalars)
      for (int64_t k = 0; k < extent.value(); ++k) {
        Path q = p;
        q.push_back(Step::at(k));
        next.push_back(q);
      }
    scalars = std::move(next);
  }
  return scalars;
}

} // namespace

void Emitter::load_element(const View& source, const Type& element, const ArithExpr& index,
                           const std::string& array, int64_t first) {
  const std::vector<Path> scalars = scalar_paths(element);
  const auto row =
      static_cast<std::size_t>(element.is_array() ? element.shape().back().value() : 1);
  for (std::size_t s = 0; s < scalars.size(); s += row) {
    std::vector<Access> reads;
    for (std::size_t t = s; t < s + row; ++t) {
      Path p = scalars[t];
      p.insert(p.begin(), Step::at(index));
      reads.push_back(resolve(source, p));
    }
    line({Piece::row_loads(array, first + static_cast<int64_t>(s), std::move(reads))});
  }
}

bool Emitter::stream_windows(const Node& f, const Operand& in, const View& dest) {
  if (lane_mode_)
    return false;
  // The windowed components (one, or those of a Zip) and, for a Zip, the others.
  bool zipped =
      in.view->kind == ViewKind::Zip && in.type.is_array() && in.type.element().is_tuple();
  if (!zipped)
    if (auto sums = plane_sum_step(f.children[0]))
      if (auto w = stream_window(in.view, in.type, options_.target.max_private_elements))
        if (stream_plane_sums(*sums, w->source, w->window, in, dest))
          return true;
  std::vector<std::optional<StreamedWindow>> parts;
  if (zipped) {
    const auto& components = in.type.element().elements();
    for (std::size_t k = 0; k < in.view->children.size(); ++k)
      parts.push_back(stream_window(in.view->children[k],
                                    Type::array(components.at(k), in.type.length()),
                                    kMaxRotatedScalars));
  } else {
    parts.push_back(stream_window(in.view, in.type, kMaxRotatedScalars));
  }
  bool any = false;
  for (const auto& p : parts)
    any = any || p.has_value();
  if (!any)
    return false;

  std::vector<std::shared_ptr<Memory>> windows; // null for a plain component
  for (const auto& p : parts) {
    if (!p) {
      windows.push_back(nullptr);
      continue;
    }
    auto memory = std::make_shared<Memory>();
    memory->name = fresh("win");
    memory->space = AddressSpace::Private;
    memory->element = p->window.element().innermost().scalar_kind();
    memory->type = p->window;
    declare_private(memory->element, memory->name, p->n * p->scalars);
    windows.push_back(memory);
  }
  // Loads element `index` of the array that component k's windows slide over into `slot`.
  auto load = [&](std::size_t k, int64_t slot, const ArithExpr& index) {
    load_element(parts[k]->source, parts[k]->window.element(), index, windows[k]->name,
                 slot * parts[k]->scalars);
  };
  for (std::size_t k = 0; k < parts.size(); ++k)
    for (int64_t e = 0; parts[k] && e + 1 < parts[k]->n; ++e)
      load(k, e, e);
  std::string i = fresh("i");
  ArithExpr var = ArithExpr::var(i, 0, in.type.length() - 1);
  open(cat("for (int ", i, " = 0; ", i, " < ", printer_.arith(in.type.length()), "; ++", i, ")"));
  ++seq_depth_;
  for (std::size_t k = 0; k < parts.size(); ++k)
    if (parts[k])
      load(k, parts[k]->n - 1, var + (parts[k]->n - 1));
  // The step's value: the rotating window, or for a Zip the tuple of each component's rotating
  // window (whatever the step) or element i of a plain component.
  auto step_value = [&]() -> View {
    if (!zipped)
      return memory_view(windows[0]);
    std::vector<View> components;
    for (std::size_t k = 0; k < parts.size(); ++k)
      components.push_back(windows[k] ? map_view(memory_view(windows[k]), "")
                                      : in.view->children[k]);
    return index_view(zip_view(std::move(components)), var);
  };
  Operand window{step_value(), in.type.element()};
  apply_write(f.children[0], {window}, index_view(dest, var));
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (!parts[k])
      continue;
    const std::string& name = windows[k]->name;
    int64_t c = parts[k]->scalars;
    for (int64_t s = 0; s + c < parts[k]->n * c; ++s)
      line(cat(name, "[", s, "] = ", name, "[", s + c, "];"));
  }
  --seq_depth_;
  close();
  return true;
}

} // namespace tessera::codegen
