#include "codegen/SharedSource.h"

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/Error.h"

namespace tessera::codegen {

namespace {

// The top-level pieces of a kernel's source before its __kernel line, and the rest: a piece is
// a helper (a function, a type, a sampler) or a preprocessor block, lines gathered until their
// braces and #if/#endif balance.
std::pair<std::vector<std::string>, std::string> split_helpers(const std::string& source) {
  std::vector<std::string> pieces;
  std::istringstream lines(source);
  std::string piece, rest;
  int braces = 0, conditionals = 0;
  bool in_kernel = false;
  for (std::string line; std::getline(lines, line);) {
    in_kernel |= line.rfind("__kernel", 0) == 0;
    if (in_kernel) {
      rest += line + "\n";
      continue;
    }
    piece += line + "\n";
    for (char c : line)
      braces += c == '{' ? 1 : c == '}' ? -1 : 0;
    conditionals += line.rfind("#if", 0) == 0 ? 1 : line.rfind("#endif", 0) == 0 ? -1 : 0;
    if (braces == 0 && conditionals == 0) {
      pieces.push_back(piece);
      piece.clear();
    }
  }
  if (!piece.empty())
    pieces.push_back(piece);
  return {pieces, rest};
}

// The C name a helper piece defines: a function's (the identifier before its first '('), a
// type's or a sampler's (the last identifier before '=' or ';'); empty for anything else.
std::string defined_name(const std::string& piece) {
  if (piece.empty() || piece[0] == '#' || piece[0] == '/' || piece[0] == '\n')
    return "";
  std::smatch m;
  if (std::regex_search(piece, m, std::regex(R"(^[^(=;{]*?(\w+)\s*\()")))
    return m[1];
  if (std::regex_search(piece, m, std::regex(R"((\w+)\s*(=|;)[^;]*$)")))
    return m[1];
  return "";
}

} // namespace

std::string SharedSources::text() const {
  std::string all;
  for (const auto& s : sources)
    all += s + "\n";
  return all;
}

SharedSources shared_sources(const std::vector<Kernel>& kernels, KernelNames names) {
  std::set<std::string> emitted;
  std::map<std::string, std::string> defined; // name -> its first text
  SharedSources out;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const Kernel& k = kernels[i];
    const std::string suffix = names == KernelNames::Unique ? cat("_k", i) : cat("_", k.name);
    auto [pieces, rest] = split_helpers(k.source);
    bool conflict = false;
    for (const auto& piece : pieces) {
      std::string name = defined_name(piece);
      conflict |= !name.empty() && defined.count(name) && defined[name] != piece;
    }
    std::string kept, renames, undo;
    for (const auto& piece : pieces) {
      std::string name = defined_name(piece);
      if (conflict && !name.empty() && defined.count(name)) {
        renames += cat("#define ", name, " ", name, suffix, "\n");
        undo += cat("#undef ", name, "\n");
      } else if (emitted.count(piece)) {
        continue;
      } else {
        emitted.insert(piece);
        if (!name.empty())
          defined.emplace(name, piece);
      }
      kept += piece;
    }
    std::string kernel_rename, kernel_undo;
    out.names.push_back(k.name);
    if (names == KernelNames::Unique) {
      out.names.back() = k.name + suffix;
      kernel_rename = cat("#define ", k.name, " ", out.names.back(), "\n");
      kernel_undo = cat("#undef ", k.name, "\n");
    }
    out.sources.push_back(renames + kept + kernel_rename + rest + kernel_undo + undo);
  }
  return out;
}

} // namespace tessera::codegen
