// An exclusive lock on a file that a process owns while it runs, so that a second process
// writing the same file fails at once instead of both claiming to have written it. The lock is
// flock(2) on a lock file beside the file (".NAME.lock": the file itself is replaced by rename,
// which would drop a lock held on it), and holds the owner's PID for the message. The kernel
// releases it when the process ends, however it ends (SIGKILL included); a lock file left
// behind is taken over by the next owner.
#pragma once

#include <string>

namespace tessera {

class FileLock {
public:
  // Locks `path` for the life of the object; Error naming the owner's PID when another process
  // holds it. `what` names the file in messages (e.g. "the report").
  explicit FileLock(const std::string& path, const std::string& what = "the file");
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  // ".NAME.lock" in the directory of `path`.
  static std::string lock_path(const std::string& path);

private:
  int fd_ = -1;
  std::string lock_path_;
};

} // namespace tessera
