// Where outputs may go (core/OutputPath.h), how they are written (core/AtomicFile.h: modes kept,
// character devices written through), the files of a command checked together (core/FilePlan.h)
// and the lock a run holds on its report (core/FileLock.h).
#include <doctest/doctest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/FileLock.h"
#include "core/FilePlan.h"
#include "core/OutputPath.h"
#include "tests/Helpers.h"
#include "tests/TempDir.h"

using namespace tessera;
using tessera::testing::error_of;
using tessera::testing::has;
namespace fs = std::filesystem;

namespace {

fs::path fresh(const std::string& name) {
  static fs::path root = testing::make_temp_dir("tessera-output");
  fs::path dir = root / name;
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

unsigned mode_of(const fs::path& p) {
  struct stat info {};
  ::stat(p.c_str(), &info);
  return info.st_mode & 07777;
}

} // namespace

TEST_CASE("resolve_output: new and regular files are replaced, other nodes refused") {
  fs::path dir = fresh("resolve");
  OutputTarget fresh_file = resolve_output((dir / "new.txt").string(), "-o");
  CHECK(fresh_file.kind == OutputKind::Replace);
  CHECK_FALSE(fresh_file.exists);
  std::ofstream(dir / "old.txt") << "x";
  fs::permissions(dir / "old.txt", static_cast<fs::perms>(0604));
  OutputTarget old = resolve_output((dir / "old.txt").string());
  CHECK(old.exists);
  CHECK(old.mode == 0604);
  CHECK(error_of([&] { resolve_output((dir / "no-dir" / "x").string(), "--json"); }) ==
        "cannot write --json '" + (dir / "no-dir" / "x").string() + "': the directory " +
            (dir / "no-dir").string() + " does not exist");
  CHECK(error_of([&] {
          resolve_output(dir.string(), "--plot");
        }).find("it is a directory; give the name of a regular file") != std::string::npos);
  CHECK(error_of([&] { resolve_output("", "-o"); }) == "-o needs a file name, got an empty one");
  fs::permissions(dir / "old.txt", static_cast<fs::perms>(0444));
  CHECK(error_of([&] {
          resolve_output((dir / "old.txt").string(), "-o");
        }).find("it is read-only (mode 444)") != std::string::npos);
}

TEST_CASE("resolve_output: links lead to their file, loops are an error") {
  fs::path dir = fresh("links");
  fs::create_symlink("target.txt", dir / "link");
  fs::create_symlink("link", dir / "link2");
  OutputTarget t = resolve_output((dir / "link2").string());
  CHECK(fs::path(t.path) == dir / "target.txt");
  write_file_atomically((dir / "link2").string(), "through two links\n");
  CHECK(fs::is_symlink(fs::symlink_status(dir / "link")));
  CHECK(fs::is_symlink(fs::symlink_status(dir / "link2")));
  CHECK(read_text(dir / "target.txt") == "through two links\n");
  fs::create_symlink("loop-b", dir / "loop-a");
  fs::create_symlink("loop-a", dir / "loop-b");
  CHECK(error_of([&] {
          resolve_output((dir / "loop-a").string());
        }).find("too many levels of symbolic links") != std::string::npos);
}

TEST_CASE("write_file_atomically keeps the mode; a character device is written through") {
  fs::path dir = fresh("modes");
  fs::path file = dir / "r.json";
  write_file_atomically(file.string(), "one\n");
  fs::permissions(file, static_cast<fs::perms>(0640));
  write_file_atomically(file.string(), "two\n");
  CHECK(read_text(file) == "two\n");
  CHECK(mode_of(file) == 0640);

  fs::path null = dir / "null";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    MESSAGE("skipped the device node: mknod needs root (" << std::strerror(errno) << ")");
    return;
  }
  CHECK(resolve_output(null.string()).kind == OutputKind::WriteThrough);
  write_file_atomically(null.string(), "discarded\n");
  struct stat info {};
  REQUIRE(::lstat(null.c_str(), &info) == 0);
  CHECK(S_ISCHR(info.st_mode));
}

TEST_CASE("same_file compares identity, not names") {
  fs::path dir = fresh("same");
  std::ofstream(dir / "a") << "a";
  std::ofstream(dir / "b") << "b";
  fs::create_symlink("a", dir / "alias");
  fs::create_hard_link(dir / "a", dir / "hard");
  CHECK(same_file((dir / "a").string(), (dir / "." / "a").string()));
  CHECK(same_file((dir / "a").string(), (dir / "alias").string()));
  CHECK(same_file((dir / "a").string(), (dir / "hard").string()));
  CHECK_FALSE(same_file((dir / "a").string(), (dir / "b").string()));
  // Not there yet: by the normalised path.
  CHECK(same_file((dir / "new").string(), (dir / ".." / dir.filename() / "new").string()));
  CHECK_FALSE(same_file((dir / "new").string(), (dir / "other").string()));
}

TEST_CASE("FilePlan: outputs may not replace each other or an input; inputs are validated") {
  fs::path dir = fresh("plan");
  std::ofstream(dir / "in.json") << "input";
  fs::create_symlink("in.json", dir / "alias");
  const std::string in = (dir / "in.json").string(), alias = (dir / "alias").string();
  auto plan = [&] { return FilePlan().input(in, "the --program file", "the program"); };
  CHECK(error_of([&] { plan().output(alias, "--json", "the report").check(); }) ==
        "--json names the --program file itself ('" + alias +
            "'): the report would replace the program; give the report another name");
  const std::string out = (dir / "out.json").string();
  CHECK(error_of([&] {
          plan().output(out, "-o", "the kernel").output(out, "--json", "the launch").check();
        }) == "-o and --json name the same file '" + out +
                  "': the launch would replace the kernel; give them two names");
  // Empty paths are options not given; distinct files and character devices pass.
  CHECK_NOTHROW(plan().output("", "--json", "the report").output(out, "-o", "the kernel").check());
  CHECK_NOTHROW(FilePlan()
                    .output("/dev/null", "--json", "the report")
                    .output("/dev/null", "--plot", "the picture")
                    .check());
  // An output that may not be written at all is refused as resolve_output refuses it.
  CHECK(has(error_of([&] { FilePlan().output(dir.string(), "--plot", "the picture").check(); }),
            "it is a directory"));
  // The validator runs only on an input that exists, after the identity checks.
  int validated = 0;
  FilePlan()
      .input(in, "the database", "it", [&](const std::string&) { ++validated; })
      .input((dir / "missing").string(), "the other", "it",
             [&](const std::string&) { ++validated; })
      .check();
  CHECK(validated == 1);
  CHECK(read_text(dir / "in.json") == "input");
}

TEST_CASE("FileLock: a second owner is refused with the first one's PID, then free again") {
  fs::path dir = fresh("lock");
  std::string report = (dir / "r.json").string();
  {
    FileLock first(report, "the report");
    // flock locks belong to open files: a second open in this process conflicts like another
    // process would.
    CHECK(error_of([&] { FileLock second(report, "the report"); }) ==
          "the report '" + report + "' is in use by another run (process " +
              std::to_string(::getpid()) + "): wait until it ends, or write to another file");
  }
  CHECK_NOTHROW(FileLock(report, "the report"));
  CHECK(fs::exists(FileLock::lock_path(report)));
  CHECK(FileLock::lock_path(report) == (dir / ".r.json.lock").string());
}
