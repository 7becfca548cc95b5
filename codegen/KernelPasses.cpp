// Passes over the kernel IR (KernelIR.h) and its statement constructors.
#include "codegen/KernelIR.h"

#include "core/Error.h"

namespace tessera::codegen {

Piece Piece::literal(std::string text) {
  Piece p;
  p.text = std::move(text);
  return p;
}

Piece Piece::scalar(Access access) {
  Piece p;
  p.kind = Kind::Scalar;
  p.access = std::move(access);
  return p;
}

Piece Piece::vector(Access access, ScalarKind element, std::shared_ptr<const LaneMode> lanes) {
  Piece p = scalar(std::move(access));
  p.kind = Kind::Vector;
  p.element = element;
  p.lanes = std::move(lanes);
  return p;
}

Piece Piece::address(Access read) {
  if (read.kind != Access::MemoryRead)
    internal_error("the address of an access that is not memory");
  Piece p = scalar(std::move(read));
  p.kind = Kind::Address;
  return p;
}

Piece Piece::guard(ArithExpr condition, bool negated) {
  Piece p = scalar(Access::integer(std::move(condition)));
  p.kind = Kind::Guard;
  p.negated = negated;
  return p;
}

Piece Piece::row_loads(std::string array, int64_t slot, std::vector<Access> reads) {
  Piece p = literal(std::move(array));
  p.kind = Kind::Run;
  p.slot = slot;
  p.run = std::move(reads);
  return p;
}

Stmt Stmt::line(Pieces pieces) {
  Stmt s;
  s.pieces = std::move(pieces);
  return s;
}

Stmt Stmt::line(std::string text, std::set<std::string> calls) {
  Stmt s;
  s.text = std::move(text);
  s.calls = std::move(calls);
  return s;
}

Stmt Stmt::nest(std::string header, Block body, std::set<std::string> calls) {
  Stmt s = line(std::move(header), std::move(calls));
  s.kind = Kind::Nest;
  s.body = std::move(body);
  return s;
}

Stmt Stmt::if_else(std::string condition, Block then, Block otherwise, std::string else_condition) {
  Stmt s = nest(std::move(condition), std::move(then));
  s.kind = Kind::IfElse;
  s.orelse = std::move(otherwise);
  s.else_condition = std::move(else_condition);
  return s;
}

Stmt Stmt::local_guard(int dim, int64_t extent, Block body) {
  Stmt s = nest("", std::move(body));
  s.kind = Kind::LocalGuard;
  s.dim = dim;
  s.extent = extent;
  return s;
}

namespace {

void collect_calls(const Block& block, std::set<std::string>& calls) {
  for (const auto& s : block) {
    calls.insert(s.calls.begin(), s.calls.end());
    collect_calls(s.body, calls);
    collect_calls(s.orelse, calls);
  }
}

} // namespace

std::set<std::string>
called_functions(const Block& block, const std::map<std::string, std::set<std::string>>& calls_of) {
  std::set<std::string> direct;
  collect_calls(block, direct);
  std::set<std::string> all;
  std::vector<std::string> work(direct.begin(), direct.end());
  while (!work.empty()) {
    std::string f = work.back();
    work.pop_back();
    if (!all.insert(f).second)
      continue;
    if (auto it = calls_of.find(f); it != calls_of.end())
      work.insert(work.end(), it->second.begin(), it->second.end());
  }
  return all;
}

Block specialise(const Block& block, const std::map<std::string, ArithExpr>& ranges) {
  Block out = block;
  for (auto& s : out) {
    for (auto& p : s.pieces) {
      if (p.kind != Piece::Kind::Text)
        p.access = substitute(p.access, ranges);
      for (auto& read : p.run)
        read = substitute(read, ranges);
    }
    s.body = specialise(s.body, ranges);
    s.orelse = specialise(s.orelse, ranges);
  }
  return out;
}

Block resolve_local_guards(const Block& block, const std::array<int64_t, 3>& local) {
  Block out;
  for (const auto& s : block) {
    Stmt r = s;
    r.body = resolve_local_guards(s.body, local);
    r.orelse = resolve_local_guards(s.orelse, local);
    if (s.kind != Stmt::Kind::LocalGuard) {
      out.push_back(std::move(r));
      continue;
    }
    int64_t size = local[static_cast<std::size_t>(s.dim)];
    if (s.extent > size)
      internal_error(cat("a MapLcl(", s.dim, ") over ", s.extent, " in a work-group of ", size));
    if (s.extent == size)
      out.insert(out.end(), r.body.begin(), r.body.end());
    else
      out.push_back(Stmt::nest(cat("if (lid", s.dim, " < ", s.extent, ")"), std::move(r.body)));
  }
  return out;
}

} // namespace tessera::codegen
