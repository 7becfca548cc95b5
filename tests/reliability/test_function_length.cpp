// No library function over 120 lines (the project's standard: a long function is split into
// named pieces). Functions are found on the sources by their braces: comments and literals
// dropped, a brace that opens outside any function after a `)` (and not after namespace, class,
// struct, enum, union or `=`) opens a function's body, and its lines run to the matching brace.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/Helpers.h"

namespace {

namespace fs = std::filesystem;

constexpr int kMostLines = 120;

// The text without comments and string or character literals; newlines kept.
std::string code_only(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n')
        ++i;
      out += '\n';
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      for (i += 2; i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/'); ++i)
        if (text[i] == '\n')
          out += '\n';
      ++i;
    } else if (c == 'R' && i + 2 < text.size() && text[i + 1] == '"' && text[i + 2] == '(') {
      std::size_t end = text.find(")\"", i);
      for (std::size_t k = i; k < end && k < text.size(); ++k)
        if (text[k] == '\n')
          out += '\n';
      out += "\"\"";
      i = end == std::string::npos ? text.size() : end + 1;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i)
        if (text[i] == '\\')
          ++i;
      out += "\"\"";
    } else {
      out += c;
    }
  }
  return out;
}

// "file:line name (N lines)" for every function of `text` longer than kMostLines.
std::vector<std::string> long_functions(const std::string& file, const std::string& text) {
  static const std::regex scope(R"(\b(namespace|class|struct|enum|union)\b[^()]*$)");
  static const std::regex name(R"(([~\w:]+|operator\S*)\s*\([^;]*$)");
  std::string code = code_only(text);
  struct Open {
    bool function;
    int line;
    std::string name;
  };
  std::vector<Open> open;
  std::vector<std::string> found;
  int line = 1, functions_open = 0;
  std::size_t statement = 0; // where the text before the next brace starts
  for (std::size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    if (c == '\n') {
      ++line;
    } else if (c == '{') {
      std::string head = code.substr(statement, i - statement);
      head.erase(head.find_last_not_of(" \n\t") + 1);
      std::smatch m;
      bool function = functions_open == 0 && head.find(')') != std::string::npos &&
                      !std::regex_search(head, scope) && (head.empty() || head.back() != '=');
      if (function && std::regex_search(head, m, name))
        open.push_back({true, line, m[1]});
      else
        open.push_back({function, line, ""});
      functions_open += function ? 1 : 0;
      statement = i + 1;
    } else if (c == '}') {
      if (!open.empty()) {
        Open o = open.back();
        open.pop_back();
        if (o.function) {
          --functions_open;
          int lines = line - o.line + 1;
          if (lines > kMostLines)
            found.push_back(file + ":" + std::to_string(o.line) + " " + o.name + " (" +
                            std::to_string(lines) + " lines)");
        }
      }
      statement = i + 1;
    } else if (c == ';') {
      statement = i + 1;
    }
  }
  return found;
}

} // namespace

TEST_CASE("function length: the finder sees a function's lines, not its lambdas' or classes'") {
  std::string body;
  for (int i = 0; i < 130; ++i)
    body += "  x += 1; // }\n";
  CHECK(long_functions("a.cpp", "int f(int x) {\n" + body + "  return x;\n}\n") ==
        std::vector<std::string>{"a.cpp:1 f (133 lines)"});
  CHECK(
      long_functions("b.cpp", "namespace n {\nstruct S {\nint g() { return 1; }\n};\n}\n").empty());
  CHECK(long_functions("c.cpp", "void h() {\n  auto l = [] {\n" + body + "  };\n}\n").size() == 1);
}

TEST_CASE("function length: no library function over 120 lines") {
  const fs::path root = TESSERA_SOURCE_DIR;
  std::vector<std::string> found;
  for (const char* folder :
       {"core", "primitives", "dsl", "rewrite", "codegen", "runtime", "compile", "explore",
        "stencils", "multigrid", "distributed", "tessera", "tools"}) {
    if (!fs::exists(root / folder))
      continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      auto ext = entry.path().extension();
      if (ext != ".cpp" && ext != ".h")
        continue;
      auto more = long_functions(fs::relative(entry.path(), root).string(),
                                 tessera::testing::read_text_file(entry.path()));
      found.insert(found.end(), more.begin(), more.end());
    }
  }
  std::string list;
  for (const auto& f : found)
    list += f + "\n";
  CHECK_MESSAGE(found.empty(), "functions over 120 lines:\n" << list);
}
