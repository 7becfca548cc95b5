#include "distributed/HaloExchange.h"

#include <algorithm>
#include <chrono>

#include "core/Error.h"
#include "distributed/SharedFaces.h"
#include "runtime/ClError.h"
#include "runtime/Launch.h"
#include "runtime/Timeline.h"

namespace tessera::distributed {

std::vector<Face> halo_faces(const Block& block, int64_t h,
                             const std::vector<std::vector<int>>& neighbours) {
  std::vector<Face> faces;
  auto extended = block.extended();
  const std::size_t dims = block.extent.size();
  for (std::size_t d = 0; d < dims; ++d)
    for (int side = 0; side < 2; ++side) {
      if (!block.internal[d][side])
        continue;
      Face f;
      f.dim = static_cast<int>(d);
      f.side = side;
      f.neighbour = neighbours.at(d).at(side);
      f.send.array = f.receive.array = extended;
      for (std::size_t e = 0; e < dims; ++e) {
        // Before d: all of E (halos received); after d: the block's own range.
        int64_t lo = e < d ? 0 : block.halo_lo[e];
        int64_t n = e < d ? extended[e] : block.extent[e];
        f.send.offset.push_back(lo);
        f.send.extent.push_back(n);
      }
      f.receive = f.send;
      int64_t own_lo = block.halo_lo[d], own_hi = own_lo + block.extent[d];
      f.send.offset[d] = side == 0 ? own_lo : own_hi - h;
      f.receive.offset[d] = side == 0 ? own_lo - h : own_hi;
      f.send.extent[d] = f.receive.extent[d] = h;
      faces.push_back(f);
    }
  return faces;
}

HaloExchange::HaloExchange(std::vector<Face> faces, std::size_t element_bytes,
                           FaceStaging::Packing packing, std::size_t piece_bytes)
    : faces_(std::move(faces)), element_bytes_(element_bytes), packing_(packing),
      piece_bytes_(std::max<std::size_t>(piece_bytes, 1)), count_(faces_.size(), 0) {}

HaloExchange::~HaloExchange() = default;

// A message leaves from the sender's side s and arrives on the receiver's side 1 - s; the tag
// names the sender's side (and the piece), so two faces to the same rank (two ranks on a torus)
// stay apart.
int face_tag(const Face& f, int sender_side, int64_t piece) {
  return static_cast<int>((2 * f.dim + sender_side) * HaloExchange::kMaxPieces + piece);
}

void HaloExchange::share_host_memory(const Communicator& comm) {
  if (staged_for_)
    internal_error("a halo exchange shared its faces after its first run");
  std::vector<std::size_t> face_bytes;
  for (const auto& f : faces_)
    face_bytes.push_back(bytes(f.send));
  shared_ = SharedFaces::make(comm, faces_, face_bytes);
}

bool HaloExchange::shared(std::size_t face) const {
  return shared_ && shared_->shared(face);
}

std::size_t HaloExchange::shared_faces() const {
  std::size_t n = 0;
  for (std::size_t j = 0; j < faces_.size(); ++j)
    n += shared(j) ? 1 : 0;
  return n;
}

void HaloExchange::finish_uploads() {
  if (!uploads_.empty())
    runtime::check_cl(cl::WaitForEvents(uploads_), "writing a halo face");
  uploads_.clear();
  for (auto [face, k] : unreleased_)
    shared_->release(face, k);
  unreleased_.clear();
}

std::size_t HaloExchange::bytes(const Rect& region, int colour) const {
  const int64_t points = colour < 0 ? region.points() : ColourPacking::packed_points(region);
  return static_cast<std::size_t>(points) * element_bytes_;
}

std::size_t HaloExchange::largest_face_bytes() const {
  std::size_t largest = 0;
  for (const auto& f : faces_)
    largest = std::max(largest, bytes(f.send));
  return largest;
}

void HaloExchange::colour_packing(ColourPacking* packing, int origin_parity) {
  colours_ = packing;
  origin_parity_ = origin_parity;
}

void HaloExchange::stage(cl::CommandQueue& queue) {
  if (staged_for_ == queue())
    return;
  finish_uploads();
  send_.clear();
  receive_.clear();
  for (std::size_t j = 0; j < faces_.size(); ++j) {
    const bool own = !shared(j); // a shared face's host memory is its slot of the exchange
    send_.push_back(std::make_unique<FaceStaging>(queue, bytes(faces_[j].send), packing_, own));
    receive_.push_back(
        std::make_unique<FaceStaging>(queue, bytes(faces_[j].receive), packing_, own));
  }
  if (shared_)
    shared_->register_in(queue.getInfo<CL_QUEUE_CONTEXT>());
  staged_for_ = queue();
}

void HaloExchange::run(const Communicator& comm, cl::CommandQueue& queue,
                       const cl::Buffer& extended, int colour) {
  if (colour >= 0 && packing_ != FaceStaging::Packing::OnDevice)
    internal_error("a halo exchange of one colour packs its faces on the device");
  stage(queue);
  std::size_t i = 0;
  while (i < faces_.size()) {
    std::size_t end = i;
    while (end < faces_.size() && faces_[end].dim == faces_[i].dim)
      ++end;
    if (packing_ == FaceStaging::Packing::Transfer) {
      exchange_pieces(comm, queue, extended, i, end);
    } else {
      begin_faces(comm, extended, i, end, colour);
      end_faces();
    }
    i = end;
  }
}

bool HaloExchange::splits() const {
  if (packing_ != FaceStaging::Packing::OnDevice || faces_.empty())
    return false;
  for (const auto& f : faces_)
    if (f.dim != faces_.front().dim)
      return false; // a later dimension's faces carry the earlier one's halos
  return true;
}

void HaloExchange::begin(const Communicator& comm, cl::CommandQueue& queue,
                         const cl::Buffer& extended, int colour) {
  if (!splits())
    internal_error("a halo exchange split in two halves needs faces of one dimension");
  stage(queue);
  begin_faces(comm, extended, 0, faces_.size(), colour);
  runtime::check_cl(queue.flush(), "reading a halo face");
}

void HaloExchange::end() {
  end_faces();
}

// One wait on the device per exchange: the faces' reads follow the kernels that wrote them in the
// in-order queue, and the writes are left enqueued before the kernels that read them. On NVIDIA
// each wait costs tens of microseconds, and a cycle of the solver has dozens of exchanges.
void HaloExchange::begin_faces(const Communicator& comm, const cl::Buffer& extended,
                               std::size_t first, std::size_t last, int colour) {
  if (pending_)
    internal_error("a halo exchange begun twice");
  if (colour >= 0 && !colours_)
    internal_error("a halo exchange of one colour without its packing kernels");
  finish_uploads(); // a face must not land where one is still being written from
  pending_ = std::make_unique<Pending>(Pending{Requests(comm), first, last, colour, extended, {}});
  for (std::size_t j = first; j < last; ++j) {
    ++count_[j];
    if (!shared(j))
      pending_->requests.receive(receive_[j]->host(), bytes(faces_[j].receive, colour),
                                 faces_[j].neighbour, face_tag(faces_[j], 1 - faces_[j].side));
  }
  pending_->downloads.resize(last - first);
  for (std::size_t j = first; j < last; ++j) {
    if (shared(j)) {
      shared_->wait_until_free(j, count_[j]);
      send_[j]->point_at(shared_->send_slot(j, count_[j]));
    }
    cl::Event* done = &pending_->downloads[j - first];
    if (colour < 0)
      send_[j]->download(extended, faces_[j].send, element_bytes_, done);
    else
      send_[j]->download_colour(*colours_, extended, faces_[j].send, origin_parity_, colour,
                                element_bytes_, done);
    if (runtime::Timeline::recording()) // (no label built for nothing on this path)
      runtime::Timeline::note(label_ + " read", *done);
  }
}

void HaloExchange::end_faces() {
  if (!pending_)
    internal_error("a halo exchange ended that was not begun");
  auto p = std::move(pending_);
  // What was enqueued since begin (the interior's launch) goes to the device before this thread
  // blocks: waiting for the reads' events need not submit the commands after them.
  if (staged_for_)
    runtime::check_cl(clFlush(staged_for_), "submitting the kernels that overlap an exchange");
  for (std::size_t j = p->first; j < p->last; ++j) {
    cl::Event& read = p->downloads[j - p->first];
    if (read()) {
      runtime::check_cl(read.wait(), "reading a halo face");
      // The read's own time (its wait also waited for the kernels before it).
      seconds_ += runtime::event_ms(read) / 1e3;
    }
    const auto sent = std::chrono::steady_clock::now();
    const std::size_t sent_bytes = bytes(faces_[j].send, p->colour);
    if (shared(j))
      shared_->publish(j, count_[j]);
    else
      p->requests.send(send_[j]->host(), sent_bytes, faces_[j].neighbour,
                       face_tag(faces_[j], faces_[j].side));
    bytes_sent_ += sent_bytes;
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  }
  const auto received = std::chrono::steady_clock::now();
  p->requests.wait();
  for (std::size_t j = p->first; j < p->last; ++j) {
    if (shared(j)) {
      shared_->wait_until_published(j, count_[j]);
      receive_[j]->point_at(shared_->receive_slot(j, count_[j]));
      unreleased_.emplace_back(j, count_[j]);
    }
    cl::Event written;
    if (p->colour < 0)
      receive_[j]->upload(p->extended, faces_[j].receive, element_bytes_, &written);
    else
      receive_[j]->upload_colour(*colours_, p->extended, faces_[j].receive, origin_parity_,
                                 p->colour, element_bytes_, &written);
    if (runtime::Timeline::recording())
      runtime::Timeline::note(label_ + " written", written);
    if (written())
      uploads_.push_back(written);
  }
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - received).count();
}

namespace {

struct Piece {
  Rect rect;
  std::size_t offset = 0, bytes = 0; // in the packed face
};

// A face cut into pieces of about `piece_bytes` (at most kMaxPieces). A face and its mirror on
// the neighbour have the same extents, so both cut alike.
std::vector<Piece> cut_face(const Rect& face, std::size_t element_bytes, std::size_t piece_bytes) {
  const auto total = static_cast<int64_t>(face.points()) * static_cast<int64_t>(element_bytes);
  const auto count = std::clamp<int64_t>((total + static_cast<int64_t>(piece_bytes) - 1) /
                                             static_cast<int64_t>(piece_bytes),
                                         1, HaloExchange::kMaxPieces);
  std::vector<Piece> out;
  std::size_t offset = 0;
  for (auto& r : pieces(face, count)) {
    const std::size_t bytes = static_cast<std::size_t>(r.points()) * element_bytes;
    if (bytes == 0)
      continue;
    out.push_back({r, offset, bytes});
    offset += bytes;
  }
  return out;
}

} // namespace

// A shared face is read whole into its slot and published; its pieces still move as separate
// transfers.
void HaloExchange::exchange_pieces(const Communicator& comm, cl::CommandQueue& queue,
                                   const cl::Buffer& extended, std::size_t first,
                                   std::size_t last) {
  const std::size_t n = last - first;
  std::vector<std::vector<Piece>> incoming(n), outgoing(n);
  std::vector<std::vector<Requests::Range>> arrivals(n);
  std::vector<std::vector<cl::Event>> on_host(n);
  Requests requests(comm);
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t face = first + j;
    const Face& f = faces_[face];
    const uint64_t k = ++count_[face];
    incoming[j] = cut_face(f.receive, element_bytes_, piece_bytes_);
    if (shared(face)) {
      shared_->wait_until_free(face, k);
      send_[face]->point_at(shared_->send_slot(face, k));
    } else {
      for (std::size_t p = 0; p < incoming[j].size(); ++p)
        arrivals[j].push_back(requests.receive(receive_[face]->host() + incoming[j][p].offset,
                                               incoming[j][p].bytes, f.neighbour,
                                               face_tag(f, 1 - f.side, static_cast<int64_t>(p))));
    }
    outgoing[j] = cut_face(f.send, element_bytes_, piece_bytes_);
    for (const auto& piece : outgoing[j])
      read_rect(queue, extended, piece.rect, element_bytes_, send_[face]->host() + piece.offset,
                &on_host[j].emplace_back());
  }
  queue.flush();
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t face = first + j;
    const Face& f = faces_[face];
    for (std::size_t p = 0; p < outgoing[j].size(); ++p) {
      runtime::check_cl(on_host[j][p].wait(), "reading a halo face");
      if (!shared(face))
        requests.send(send_[face]->host() + outgoing[j][p].offset, outgoing[j][p].bytes,
                      f.neighbour, face_tag(f, f.side, static_cast<int64_t>(p)));
      bytes_sent_ += outgoing[j][p].bytes;
    }
    if (shared(face))
      shared_->publish(face, count_[face]);
  }
  std::vector<cl::Event> on_device;
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t face = first + j;
    if (shared(face)) {
      shared_->wait_until_published(face, count_[face]);
      receive_[face]->point_at(shared_->receive_slot(face, count_[face]));
    }
    for (std::size_t p = 0; p < incoming[j].size(); ++p) {
      if (!shared(face))
        requests.wait(arrivals[j][p]);
      write_rect(queue, extended, incoming[j][p].rect, element_bytes_,
                 receive_[face]->host() + incoming[j][p].offset, &on_device.emplace_back());
      queue.flush();
    }
  }
  if (!on_device.empty())
    runtime::check_cl(cl::WaitForEvents(on_device), "writing a halo face");
  for (std::size_t face = first; face < last; ++face)
    if (shared(face))
      shared_->release(face, count_[face]);
  requests.wait();
}

} // namespace tessera::distributed
