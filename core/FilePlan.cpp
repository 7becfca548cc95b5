#include "core/FilePlan.h"

#include <filesystem>

#include "core/Error.h"
#include "core/OutputPath.h"

namespace tessera {

FilePlan& FilePlan::output(const std::string& path, const std::string& option,
                           const std::string& role) {
  if (!path.empty())
    files_.push_back({path, option, role, /*written=*/true, {}});
  return *this;
}

FilePlan& FilePlan::input(const std::string& path, const std::string& name, const std::string& role,
                          std::function<void(const std::string&)> validate) {
  if (!path.empty())
    files_.push_back({path, name, role, /*written=*/false, std::move(validate)});
  return *this;
}

void FilePlan::check() const {
  // Which outputs are replaced (a character device is written through: never a conflict).
  std::vector<bool> replaced(files_.size(), false);
  for (std::size_t i = 0; i < files_.size(); ++i)
    if (files_[i].written)
      replaced[i] = resolve_output(files_[i].path, files_[i].option).kind == OutputKind::Replace;
  for (std::size_t later = 0; later < files_.size(); ++later) {
    const File& b = files_[later];
    for (std::size_t earlier = 0; earlier < later; ++earlier) {
      const File& a = files_[earlier];
      if (!(replaced[earlier] || replaced[later]) || !same_file(a.path, b.path))
        continue;
      if (a.written && b.written)
        user_error(cat(a.option, " and ", b.option, " name the same file '", b.path, "': ", b.role,
                       " would replace ", a.role, "; give them two names"));
      const File& out = a.written ? a : b; // one of them is written: it is replaced
      const File& in = a.written ? b : a;
      user_error(cat(out.option, " names ", in.option, " itself ('", out.path, "'): ", out.role,
                     " would replace ", in.role, "; give ", out.role, " another name"));
    }
  }
  for (const File& f : files_) {
    std::error_code ec;
    if (f.validate && std::filesystem::exists(f.path, ec))
      f.validate(f.path);
  }
}

} // namespace tessera
