#include "core/AtomicFile.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/Error.h"
#include "core/OutputPath.h"

namespace tessera {

namespace fs = std::filesystem;

namespace {

// The PID in a temporary file's name: ".tmp-PID-N" or ".tmp.PID.N"; 0 when there is none.
long temporary_pid(const std::string& name) {
  for (const char* marker : {".tmp-", ".tmp."}) {
    auto at = name.rfind(marker);
    if (at == std::string::npos)
      continue;
    const char* p = name.c_str() + at + 5;
    char* end = nullptr;
    long pid = std::strtol(p, &end, 10);
    if (end != p && pid > 0 && (*end == '-' || *end == '.' || *end == '\0'))
      return pid;
  }
  return 0;
}

bool process_exists(long pid) {
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

} // namespace

std::size_t remove_stale_temporaries(const fs::path& dir, const std::string& prefix) {
  std::size_t removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0)
      continue;
    long pid = temporary_pid(name);
    if (pid == 0 || pid == ::getpid() || process_exists(pid))
      continue;
    std::error_code rm;
    if (fs::remove(it->path(), rm))
      ++removed;
  }
  return removed;
}

namespace {

// Writes to a character device (/dev/null, a terminal) without replacing it.
void write_through(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    user_error(cat("cannot write '", path, "': ", std::strerror(errno)));
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int error = n < 0 ? errno : ENOSPC;
      ::close(fd);
      user_error(cat("cannot write '", path, "': ", std::strerror(error)));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

} // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
  OutputTarget output = resolve_output(path);
  if (output.kind == OutputKind::WriteThrough) {
    write_through(output.path, text);
    return;
  }
  fs::path target(output.path);
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  static std::atomic<unsigned> counter{0};
  std::string prefix = cat(".", target.filename().string(), ".tmp-");
  fs::path tmp = dir / cat(prefix, ::getpid(), "-", counter++);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    user_error(cat("cannot write '", path, "': cannot create a file in ", dir.string(), ": ",
                   std::strerror(errno)));
  // The replacement keeps the permissions of the file it replaces (new files: 0666 less umask).
  if (output.exists)
    ::fchmod(fd, static_cast<mode_t>(output.mode));
  std::size_t done = 0;
  int error = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = n < 0 ? errno : ENOSPC;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  if (error == 0 && ::fsync(fd) != 0 && errno != EINVAL)
    error = errno;
  if (::close(fd) != 0 && error == 0)
    error = errno;
  if (error != 0) {
    std::error_code ec;
    fs::remove(tmp, ec);
    user_error(cat("cannot write '", path, "': ", std::strerror(error),
                   error == ENOSPC || error == EFBIG || error == EDQUOT ? " (disk full?)" : "",
                   "; the file was left as it was"));
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    user_error(cat("cannot write '", path, "': ", ec.message()));
  }
  remove_stale_temporaries(dir, prefix);
}

} // namespace tessera
