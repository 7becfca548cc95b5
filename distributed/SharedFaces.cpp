#include "distributed/SharedFaces.h"

#include <array>
#include <atomic>
#include <functional>
#include <thread>

#include "core/Error.h"
#include "distributed/HaloExchange.h"
#include "runtime/ClError.h"

namespace tessera::distributed {

namespace {

// A channel: the published count, the released count (each on a cache line of its own, written
// by one rank), then the two slots, page-aligned for the devices' transfers.
constexpr std::size_t kPublished = 0, kReleased = 64, kFirstSlot = 4096, kPage = 4096;

std::size_t round_up(std::size_t bytes, std::size_t to) {
  return (bytes + to - 1) / to * to;
}

std::atomic_ref<uint64_t> counter(unsigned char* channel, std::size_t at) {
  return std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(channel + at));
}

// Spins, then yields: ranks may outnumber cores (PoCL ranks in the tests).
void wait_for(unsigned char* channel, std::size_t at, uint64_t value) {
  auto c = counter(channel, at);
  for (int spins = 0; c.load(std::memory_order_acquire) < value; ++spins)
    if (spins > 256)
      std::this_thread::yield();
}

} // namespace

SharedFaces::~SharedFaces() = default;

std::unique_ptr<SharedFaces> SharedFaces::make(const Communicator& comm,
                                               const std::vector<Face>& faces,
                                               const std::vector<std::size_t>& bytes) {
  // This rank's segment: a channel for each face whose neighbour shares the host.
  std::vector<std::size_t> offset(faces.size(), 0);
  auto window = HostWindow::allocate(comm, [&](const std::function<bool(int)>& on_this_host) {
    std::size_t total = 0;
    for (std::size_t j = 0; j < faces.size(); ++j) {
      if (!on_this_host(faces[j].neighbour))
        continue;
      offset[j] = total;
      total += kFirstSlot + 2 * round_up(std::max<std::size_t>(bytes.at(j), 1), kPage);
    }
    return total;
  });
  if (!window)
    return nullptr;
  std::unique_ptr<SharedFaces> s(new SharedFaces);
  unsigned char* mine = window->segment(comm.rank());
  std::vector<unsigned char*> neighbour(faces.size()); // null: on another host
  // Each neighbour on this host learns where this rank's channel for the face it receives is,
  // and how large its slots are (the tags of the faces' first pieces: a face and its mirror pair
  // up as their messages do).
  Requests requests(comm);
  std::vector<std::array<uint64_t, 2>> ours(faces.size()), theirs(faces.size());
  for (std::size_t j = 0; j < faces.size(); ++j) {
    neighbour[j] = window->segment(faces[j].neighbour);
    if (!neighbour[j])
      continue;
    counter(mine + offset[j], kPublished).store(0); // before the neighbour learns of it
    counter(mine + offset[j], kReleased).store(0);
    ours[j] = {offset[j], round_up(std::max<std::size_t>(bytes[j], 1), kPage)};
    requests.receive(theirs[j].data(), sizeof(theirs[j]), faces[j].neighbour,
                     face_tag(faces[j], 1 - faces[j].side));
    requests.send(ours[j].data(), sizeof(ours[j]), faces[j].neighbour,
                  face_tag(faces[j], faces[j].side));
  }
  requests.wait();
  s->channels_.resize(faces.size());
  for (std::size_t j = 0; j < faces.size(); ++j)
    if (neighbour[j])
      s->channels_[j] = {mine + offset[j], neighbour[j] + theirs[j][0], ours[j][1], theirs[j][1]};
  // Kept even where no face is shared: the window is freed collectively on this host, by every
  // rank's exchange alike.
  for (int r = 0; r < comm.size(); ++r)
    if (auto segment = window->segment_of(r); segment.memory)
      s->segments_.push_back(segment);
  s->window_ = std::move(window);
  return s;
}

void SharedFaces::wait_until_free(std::size_t face, uint64_t k) const {
  if (k > 2)
    wait_for(channels_.at(face).mine, kReleased, k - 2);
}

unsigned char* SharedFaces::send_slot(std::size_t face, uint64_t k) const {
  const Channel& c = channels_.at(face);
  return c.mine + kFirstSlot + (k % 2) * c.slot_bytes;
}

void SharedFaces::publish(std::size_t face, uint64_t k) const {
  counter(channels_.at(face).mine, kPublished).store(k, std::memory_order_release);
}

void SharedFaces::wait_until_published(std::size_t face, uint64_t k) const {
  wait_for(channels_.at(face).theirs, kPublished, k);
}

unsigned char* SharedFaces::receive_slot(std::size_t face, uint64_t k) const {
  const Channel& c = channels_.at(face);
  return c.theirs + kFirstSlot + (k % 2) * c.their_slot_bytes;
}

void SharedFaces::release(std::size_t face, uint64_t k) const {
  counter(channels_.at(face).theirs, kReleased).store(k, std::memory_order_release);
}

void SharedFaces::register_in(const cl::Context& context) {
  registered_.clear();
  for (const auto& segment : segments_) {
    cl_int err = CL_SUCCESS;
    registered_.emplace_back(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, segment.bytes,
                             segment.memory, &err);
    runtime::check_cl(err, "wrapping the memory the ranks of a host share for halo faces");
  }
}

} // namespace tessera::distributed
