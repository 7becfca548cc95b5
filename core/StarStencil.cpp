#include "core/StarStencil.h"

#include "core/Fields.h"

namespace tessera {

namespace {

struct StarCheck {
  Expr param;
  int d = 0;
  int64_t r = 0;

  bool is_call_of(const Expr& e, NodeKind kind) const {
    return e->kind == NodeKind::Call && e->callee()->kind == kind && e->children.size() == 2;
  }
  // The neighbourhood itself: the parameter, or Get(0) of a tuple parameter.
  bool is_window(const Expr& e) const {
    return e.same_as(param) || (is_call_of(e, NodeKind::Get) && e->children[1].same_as(param) &&
                                get_fields(*e->callee()).index.as_constant() == 0);
  }
  // Whether every read of the neighbourhood inside e is a star point.
  bool check(const Expr& e) const {
    if (is_call_of(e, NodeKind::At)) {
      std::vector<int64_t> index; // innermost At first
      Expr base = e;
      while (is_call_of(base, NodeKind::At) && index.size() < static_cast<std::size_t>(d)) {
        auto i = at_fields(*base->callee()).index.as_constant();
        if (!i)
          return check_children(base);
        index.push_back(*i);
        base = base->children[1];
      }
      if (is_window(base) && index.size() == static_cast<std::size_t>(d)) {
        // index holds the innermost dimension first; dimension 0 is the last.
        for (std::size_t i = 0; i + 1 < index.size(); ++i)
          if (index[i] != r && index.back() != r)
            return false;
        return true;
      }
    }
    if (e->kind == NodeKind::Param)
      return !e.same_as(param);
    if (is_call_of(e, NodeKind::Get) && e->children[1].same_as(param))
      return true; // a constant input zipped to the neighbourhood
    if (is_window(e))
      return false;
    return check_children(e);
  }
  bool check_children(const Expr& e) const {
    for (const auto& c : e->children)
      if (!check(c))
        return false;
    return true;
  }
};

} // namespace

bool star_shaped(const Expr& f, int d, int64_t r) {
  if (f->kind != NodeKind::Lambda || f->children.size() != 2)
    return false;
  StarCheck c{f->children[0], d, r};
  return c.check(f->body());
}

} // namespace tessera
