#include "distributed/HostWindow.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "distributed/MpiHandles.h"

namespace tessera::distributed {

struct HostWindow::Impl {
  MPI_Comm host = MPI_COMM_NULL;
  MPI_Win window = MPI_WIN_NULL;
  std::vector<int> host_rank; // per rank of the communicator: its rank on this host, or -1
};

bool every_rank_a_host() {
  const char* v = std::getenv("TESSERA_TEST_HOST_PER_RANK");
  return v && std::string(v) == "1";
}

HostWindow::HostWindow(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HostWindow::~HostWindow() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized)
    return;
  if (impl_->window != MPI_WIN_NULL)
    MPI_Win_free(&impl_->window);
  if (impl_->host != MPI_COMM_NULL)
    MPI_Comm_free(&impl_->host);
}

std::unique_ptr<HostWindow>
HostWindow::allocate(const Communicator& comm,
                     const std::function<std::size_t(const std::function<bool(int)>&)>& bytes_for) {
  auto impl = std::make_unique<Impl>();
  const MPI_Comm all = comm.impl_->comm;
  int rank = 0, size = 0;
  MPI_Comm_rank(all, &rank);
  MPI_Comm_size(all, &size);
  if (every_rank_a_host())
    check_mpi(MPI_Comm_split(all, rank, 0, &impl->host), "MPI_Comm_split");
  else
    check_mpi(MPI_Comm_split_type(all, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &impl->host),
              "MPI_Comm_split_type");
  // Which ranks of the communicator share this host, and their ranks there.
  MPI_Group group_all, group_host;
  MPI_Comm_group(all, &group_all);
  MPI_Comm_group(impl->host, &group_host);
  std::vector<int> ranks(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r)
    ranks[static_cast<std::size_t>(r)] = r;
  impl->host_rank.assign(static_cast<std::size_t>(size), MPI_UNDEFINED);
  MPI_Group_translate_ranks(group_all, size, ranks.data(), group_host, impl->host_rank.data());
  MPI_Group_free(&group_all);
  MPI_Group_free(&group_host);
  for (int& h : impl->host_rank)
    if (h == MPI_UNDEFINED)
      h = -1;
  const std::size_t bytes =
      bytes_for([&impl](int r) { return impl->host_rank.at(static_cast<std::size_t>(r)) >= 0; });
  // A failed allocation returns its code instead of ending the run.
  MPI_Comm_set_errhandler(impl->host, MPI_ERRORS_RETURN);
  // Each segment page-aligned (the devices' transfers pin whole pages): a size of whole pages
  // and no contiguity across ranks.
  constexpr std::size_t kPage = 4096;
  const std::size_t pages = std::max<std::size_t>((bytes + kPage - 1) / kPage, 1);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* base = nullptr;
  const int made = MPI_Win_allocate_shared(static_cast<MPI_Aint>(pages * kPage), 1, info,
                                           impl->host, &base, &impl->window) == MPI_SUCCESS
                       ? 1
                       : 0;
  MPI_Info_free(&info);
  int everywhere = 0;
  check_mpi(MPI_Allreduce(&made, &everywhere, 1, MPI_INT, MPI_MIN, all), "MPI_Allreduce");
  if (!everywhere) {
    if (!made)
      impl->window = MPI_WIN_NULL;
    HostWindow discarded(std::move(impl));
    return nullptr;
  }
  return std::unique_ptr<HostWindow>(new HostWindow(std::move(impl)));
}

HostWindow::Segment HostWindow::segment_of(int rank) const {
  const int h = impl_->host_rank.at(static_cast<std::size_t>(rank));
  if (h < 0)
    return {};
  MPI_Aint bytes = 0;
  int unit = 0;
  void* base = nullptr;
  check_mpi(MPI_Win_shared_query(impl_->window, h, &bytes, &unit, &base), "MPI_Win_shared_query");
  return {static_cast<unsigned char*>(base), static_cast<std::size_t>(bytes)};
}

} // namespace tessera::distributed
