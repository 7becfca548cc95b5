#include "core/OutputPath.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include "core/Error.h"

namespace tessera {

namespace fs = std::filesystem;

namespace {

const char* node_name(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISBLK(mode))
    return "a block device";
  return "not a regular file";
}

// The path with symbolic links resolved as far as they exist (a dangling link's target).
fs::path resolved(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path) : p;
}

// The file a chain of symbolic links ends at (which need not exist yet).
fs::path follow_links(const std::string& path, const std::string& what) {
  fs::path p(path);
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(p, ec)))
      return p;
    fs::path target = fs::read_symlink(p, ec);
    if (ec)
      break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  user_error(cat("cannot write ", what, " '", path, "': too many levels of symbolic links"));
}

} // namespace

OutputTarget resolve_output(const std::string& path, const std::string& what) {
  if (path.empty())
    user_error(cat(what, " needs a file name, got an empty one"));
  OutputTarget target;
  target.path = follow_links(path, what).string();
  struct stat info {};
  bool exists = ::stat(target.path.c_str(), &info) == 0;
  if (!exists && errno != ENOENT)
    user_error(cat("cannot write ", what, " '", path, "': ", std::strerror(errno)));
  if (exists && S_ISCHR(info.st_mode)) {
    target.exists = true;
    target.kind = OutputKind::WriteThrough;
    return target;
  }
  if (!exists || S_ISREG(info.st_mode)) {
    // Replacing needs a temporary file in the directory.
    fs::path dir = fs::path(target.path).parent_path();
    if (dir.empty())
      dir = ".";
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
      user_error(cat("cannot write ", what, " '", path, "': the directory ", dir.string(),
                     " does not exist"));
    if (::access(dir.c_str(), W_OK) != 0)
      user_error(cat("cannot write ", what, " '", path, "': the directory ", dir.string(),
                     " is not writable"));
  }
  if (!exists)
    return target;
  target.exists = true;
  if (!S_ISREG(info.st_mode))
    user_error(cat("cannot write ", what, " '", path, "': it is ", node_name(info.st_mode),
                   "; give the name of a regular file (it is replaced) or of a character "
                   "device such as /dev/null (it is written to)"));
  target.mode = info.st_mode & 07777;
  if ((target.mode & 0222) == 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%03o", target.mode);
    user_error(cat("cannot write ", what, " '", path, "': it is read-only (mode ", mode,
                   "); make it writable (chmod u+w) or choose another file"));
  }
  return target;
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return resolved(a) == resolved(b);
}

} // namespace tessera
