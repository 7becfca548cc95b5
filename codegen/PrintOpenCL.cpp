// Printing the kernel IR (KernelIR.h) as OpenCL C.
#include <algorithm>
#include <optional>
#include <sstream>

#include "codegen/KernelIR.h"
#include "codegen/UserFunctions.h"
#include "core/Error.h"

namespace tessera::codegen {

namespace {

// Whether the statement of a Guard piece runs, where the condition is known.
std::optional<bool> guard_holds(const Piece& p) {
  auto c = p.access.index.as_constant();
  if (!c)
    return std::nullopt;
  return (*c != 0) != p.negated;
}

// Whether run[t..t+width) are contiguous reads of one global buffer starting at a multiple of
// `width`: one aligned vector load.
bool aligned_vector(const std::vector<Access>& run, std::size_t t, int width) {
  if (t + static_cast<std::size_t>(width) > run.size())
    return false;
  const Access& first = run[t];
  if (first.kind != Access::MemoryRead || first.memory->space != AddressSpace::Global ||
      first.memory->is_scalar_var || !is_vector_kind(first.memory->element))
    return false;
  for (int k = 1; k < width; ++k) {
    const Access& a = run[t + static_cast<std::size_t>(k)];
    if (a.kind != Access::MemoryRead || a.memory != first.memory)
      return false;
    auto step = (a.index - first.index).as_constant();
    if (!step || *step != k)
      return false;
  }
  return prove_divisible(first.index, width) == Truth::Yes;
}

// A Run piece (KernelIR.h): its statements, one a line.
std::string print_row_loads(const Piece& p, CPrinter& printer) {
  std::string out;
  for (std::size_t t = 0; t < p.run.size();) {
    int width = 1;
    for (int w : {4, 2})
      if (aligned_vector(p.run, t, w)) {
        width = w;
        break;
      }
    const int64_t slot = p.slot + static_cast<int64_t>(t);
    const Access& a = p.run[t];
    std::string statement;
    if (width == 1) {
      statement = cat(p.text, "[", slot, "] = ", printer.access(a), ";");
    } else { // each component from the one vector load (the compiler reads it once)
      const std::string vector =
          cat("(*(const __global ", codegen::vector_type(a.memory->element, width), "*)(",
              address_of(printer, *a.memory, a.index), "))");
      for (int k = 0; k < width; ++k)
        statement += cat(k ? " " : "", p.text, "[", slot + k, "] = ", vector, ".s", k, ";");
    }
    out += (out.empty() ? "" : "\n") + statement;
    t += static_cast<std::size_t>(width);
  }
  return out;
}

std::string print_piece(const Piece& p, CPrinter& printer, UserFunctions& functions) {
  switch (p.kind) {
  case Piece::Kind::Text:
    return p.text;
  case Piece::Kind::Scalar:
    return printer.access(p.access);
  case Piece::Kind::Vector:
    return LanePrinter({&printer, p.lanes.get(), &functions}).vector(p.access, p.element);
  case Piece::Kind::Address:
    return address_of(printer, *p.access.memory, p.access.index);
  case Piece::Kind::Guard: {
    if (guard_holds(p))
      return ""; // it holds: print_expressions leaves out a statement whose guard never does
    printer.count_guard();
    const ArithExpr& c = p.access.index;
    const bool parenthesised = c.kind() == ArithKind::Lt || c.kind() == ArithKind::Le ||
                               c.kind() == ArithKind::Eq || c.kind() == ArithKind::And;
    std::string text = printer.arith(c);
    if (!parenthesised)
      text = cat("(", text, ")");
    return p.negated ? cat("if (!", text, ") ") : cat("if ", text, " ");
  }
  case Piece::Kind::Run:
    return print_row_loads(p, printer);
  }
  internal_error("unknown piece kind");
}

bool never_runs(const Stmt& s) {
  return std::any_of(s.pieces.begin(), s.pieces.end(), [](const Piece& p) {
    return p.kind == Piece::Kind::Guard && guard_holds(p) == false;
  });
}

} // namespace

void print_expressions(Block& block, CPrinter& printer, UserFunctions& functions) {
  for (auto& s : block) {
    if (never_runs(s)) {
      s.pieces.clear(); // printed as nothing
      s.text.clear();
      continue;
    }
    if (!s.pieces.empty()) {
      for (const auto& p : s.pieces)
        s.text += print_piece(p, printer, functions);
      s.pieces.clear();
      auto calls = printer.take_calls();
      s.calls.insert(calls.begin(), calls.end());
    }
    print_expressions(s.body, printer, functions);
    print_expressions(s.orelse, printer, functions);
  }
}

int count_guards(const Block& block, const CPrinter& printer, UserFunctions& functions) {
  CPrinter counting = printer;
  counting.reset_guards();
  Block copy = block;
  print_expressions(copy, counting, functions);
  return counting.guards();
}

void print_opencl(std::ostream& out, const Block& block, int indent) {
  std::string pad(static_cast<std::size_t>(2 * indent), ' ');
  for (const auto& s : block) {
    if (!s.pieces.empty())
      internal_error("a statement is printed before its expressions");
    switch (s.kind) {
    case Stmt::Kind::Line:
      // empty: a guarded statement that never runs; several lines: a row's loads (Run)
      for (std::size_t at = 0; at < s.text.size();) {
        std::size_t end = std::min(s.text.find('\n', at), s.text.size());
        out << pad << s.text.substr(at, end - at) << "\n";
        at = end + 1;
      }
      break;
    case Stmt::Kind::Nest:
      out << pad << (s.text.empty() ? "{" : s.text + " {") << "\n";
      print_opencl(out, s.body, indent + 1);
      out << pad << "}\n";
      break;
    case Stmt::Kind::IfElse:
      out << pad << "if (" << s.text << ") {\n";
      print_opencl(out, s.body, indent + 1);
      out << pad << "} else " << (s.else_condition.empty() ? "" : "if (" + s.else_condition + ") ")
          << "{\n";
      print_opencl(out, s.orelse, indent + 1);
      out << pad << "}\n";
      break;
    case Stmt::Kind::LocalGuard:
      internal_error("a MapLcl guard is printed before the work-group size was chosen");
    }
  }
}

std::string print_opencl(const Block& block, int indent) {
  std::ostringstream out;
  print_opencl(out, block, indent);
  return out.str();
}

} // namespace tessera::codegen
