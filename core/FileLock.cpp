#include "core/FileLock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/Error.h"

namespace tessera {

namespace fs = std::filesystem;

std::string FileLock::lock_path(const std::string& path) {
  fs::path p(path);
  return (p.parent_path() / cat(".", p.filename().string(), ".lock")).string();
}

FileLock::FileLock(const std::string& path, const std::string& what) : lock_path_(lock_path(path)) {
  fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0)
    user_error(cat("cannot lock ", what, " '", path, "': cannot create ", lock_path_, ": ",
                   std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    int error = errno;
    char owner[32] = {0};
    ssize_t n = ::pread(fd_, owner, sizeof owner - 1, 0);
    std::string pid = n > 0 ? std::string(owner, static_cast<std::size_t>(n)) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
      pid.pop_back();
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      user_error(cat(what, " '", path, "' is in use by another run",
                     pid.empty() ? "" : cat(" (process ", pid, ")"),
                     ": wait until it ends, or write to another file"));
    user_error(cat("cannot lock ", what, " '", path, "': ", std::strerror(error)));
  }
  std::string me = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0)
    (void)::pwrite(fd_, me.data(), me.size(), 0);
}

FileLock::~FileLock() {
  if (fd_ >= 0) {
    (void)::ftruncate(fd_, 0);
    ::close(fd_);
  }
}

} // namespace tessera
