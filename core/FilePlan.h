// Every file one command (or one API call) reads and writes, checked together before any work is
// done (docs/cli.md, "Outputs"), so that no file that is not an output of the command is ever
// written and no output replaces another:
//  - each output may be written (core/OutputPath.h, resolve_output);
//  - no two outputs are the same file;
//  - no output is a file the command reads (its --program, the report a picture is drawn from,
//    the tuning database it starts from and records into: it is an input here, and the
//    command's own writer keeps what it holds);
//  - each input passes its own check (a tuning database must be one if it exists).
// Files are compared by identity (same_file), never by name. A character device (/dev/null) is
// written through, never replaced, so it may be named any number of times.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace tessera {

class FilePlan {
public:
  // A file the command writes. `option` names it as the user gave it ("--json"), `role` says what
  // it holds ("the report"). An empty path is no file (the option was not given).
  FilePlan& output(const std::string& path, const std::string& option, const std::string& role);
  // A file the command reads, which need not exist (a tuning database not made yet). `name` is
  // how messages call it ("the --program file"), `role` what it holds ("the program");
  // `validate`, when given, is called with the path by check() when the file exists.
  FilePlan& input(const std::string& path, const std::string& name, const std::string& role,
                  std::function<void(const std::string&)> validate = {});
  // Error for the first conflict, in the order of the list at the top of this file.
  void check() const;

private:
  struct File {
    std::string path, option, role;
    bool written = false;
    std::function<void(const std::string&)> validate;
  };
  std::vector<File> files_;
};

} // namespace tessera
