#include "core/Printer.h"

#include <map>
#include <set>

#include "core/Error.h"
#include "core/Fields.h"

namespace tessera {

namespace {

class Printer {
public:
  std::string program(const Expr& e) {
    if (e->kind != NodeKind::Lambda || !all_typed(e))
      return any(e);
    std::string s = "(";
    auto params = e->params();
    for (std::size_t i = 0; i < params.size(); ++i)
      s += cat(i ? ", " : "", name(params[i]), " : ", *params[i]->declared_type);
    return s + ") => " + value(e->body());
  }

private:
  std::map<const Node*, std::string> names_;
  std::set<std::string> used_;
  int next_ = 0;

  static bool all_typed(const Expr& lambda) {
    for (const auto& p : lambda->params())
      if (!p->declared_type)
        return false;
    return true;
  }

  std::string any(const Expr& e) { return e->is_function() ? function(e) : value(e); }

  std::string name(const Expr& param) {
    auto it = names_.find(param.get());
    if (it != names_.end())
      return it->second;
    std::string n = param->name;
    if (n.empty() || used_.count(n)) {
      std::string base = n.empty() ? "p" : n;
      do
        n = base + std::to_string(next_++);
      while (used_.count(n));
    }
    used_.insert(n);
    return names_[param.get()] = n;
  }

  // A single-argument call chain f1 $ (f2 $ (... $ x)) as the list f1, f2, ... and the end x.
  static bool is_chain_link(const Expr& e) {
    if (e->kind != NodeKind::Call || e->children.size() != 2)
      return false;
    NodeKind k = e->callee()->kind;
    return k != NodeKind::UserFun && k != NodeKind::Zip && k != NodeKind::Generate;
  }

  std::string value(const Expr& e) {
    switch (e->kind) {
    case NodeKind::Param:
      return name(e);
    case NodeKind::Literal:
      return e->literal.to_string();
    case NodeKind::Call:
      break;
    default:
      return function(e);
    }
    const Expr& f = e->callee();
    auto args = e->call_args();
    if (is_chain_link(e)) {
      std::string s;
      Expr cur = e;
      while (is_chain_link(cur)) {
        s += (s.empty() ? "" : " o ") + function(cur->callee());
        cur = cur->children[1];
      }
      return s + " $ " + operand(cur);
    }
    std::string head = f->kind == NodeKind::Lambda ? "(" + function(f) + ")" : function(f);
    if (f->kind == NodeKind::Generate && args.empty())
      return head;
    std::string s = head + "(";
    for (std::size_t i = 0; i < args.size(); ++i)
      s += (i ? ", " : "") + value(args[i]);
    return s + ")";
  }

  // The end of a chain: parenthesised when it is itself a composite expression.
  std::string operand(const Expr& e) {
    std::string s = value(e);
    return is_chain_link(e) ? "(" + s + ")" : s;
  }

  std::string function(const Expr& e) {
    const Node& f = *e;
    switch (f.kind) {
    case NodeKind::Lambda:
      return lambda(e);
    case NodeKind::UserFun:
      return f.user_fun->name;
    case NodeKind::Map:
      if (f.map_kind == MapKind::Glb || f.map_kind == MapKind::Wrg || f.map_kind == MapKind::Lcl)
        return cat(map_kind_name(f.map_kind), "(", f.dim, ")(", function(f.children[0]), ")");
      return cat(map_kind_name(f.map_kind), "(", function(f.children[0]), ")");
    case NodeKind::Reduce:
      return cat(reduce_kind_name(f.reduce_kind), "(", function(f.children[0]), ", ",
                 value(f.children[1]), ")");
    case NodeKind::Scan:
      return cat(f.backward ? "ScanBackward(" : "Scan(", function(f.children[0]), ", ",
                 value(f.children[1]), ")");
    case NodeKind::Zip:
      return "Zip";
    case NodeKind::Split:
      return cat("Split(", size_list(f), ")");
    case NodeKind::Join:
      return "Join()";
    case NodeKind::Slide:
      return cat("Slide(", size_list(f), ")");
    case NodeKind::Pad:
      return cat("Pad(", size_list(f), ",", f.boundary.to_string(), ")");
    case NodeKind::Drop:
      return cat("Drop(", size_list(f), ")");
    case NodeKind::Transpose:
      return "Transpose()";
    case NodeKind::Iterate:
      return cat("Iterate(", size_list(f), ", ", function(f.children[0]), ")");
    case NodeKind::At:
      return cat("At(", size_list(f), ")");
    case NodeKind::Get:
      return cat("Get(", size_list(f), ")");
    case NodeKind::Generate:
      return cat("Generate(", size_list(f), ", ", function(f.children[0]), ")");
    case NodeKind::TileSlide:
      return cat("TileSlide(", size_list(f), ",", f.boundary.to_string(), ")");
    case NodeKind::TimeTile:
      return cat("TimeTile(", size_list(f), ",", f.boundary.to_string(), ", ",
                 function(f.children[0]), ")");
    case NodeKind::StreamSteps:
      return cat("StreamSteps(", size_list(f), ",", f.boundary.to_string(), ", ",
                 function(f.children[0]), ")");
    case NodeKind::ToMem:
      return cat("to", address_space_name(f.space), "(", function(f.children[0]), ")");
    case NodeKind::Param:
    case NodeKind::Literal:
    case NodeKind::Call:
      return value(e);
    }
    return "?";
  }

  std::string lambda(const Expr& e) {
    auto params = e->params();
    const Expr& body = e->body();
    // x => f1 $ f2 $ ... $ x  prints as the composition f1 o f2 o ...
    if (params.size() == 1 && is_chain_link(body)) {
      std::vector<Expr> chain;
      Expr cur = body;
      while (is_chain_link(cur)) {
        chain.push_back(cur->callee());
        cur = cur->children[1];
      }
      if (cur.same_as(params[0])) {
        std::string s;
        for (const auto& f : chain)
          s += (s.empty() ? "" : " o ") + function(f);
        return s;
      }
    }
    std::string s = "fun(";
    if (params.size() > 1)
      s += "(";
    for (std::size_t i = 0; i < params.size(); ++i)
      s += (i ? ", " : "") + name(params[i]);
    if (params.size() > 1)
      s += ")";
    return s + " => " + value(body) + ")";
  }
};

} // namespace

std::string print(const Expr& e) {
  Printer printer;
  return printer.program(e);
}

} // namespace tessera
