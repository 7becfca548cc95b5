#include "distributed/HaloExchange.h"

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
                           FaceStaging::Packing packing)
    : faces_(std::move(faces)), element_bytes_(element_bytes), packing_(packing) {}

HaloExchange::~HaloExchange() = default;

void HaloExchange::run(const Communicator& comm, cl::CommandQueue& queue,
                       const cl::Buffer& extended) {
  // A message leaves from the sender's side s and arrives on the receiver's side 1 - s; the tag
  // names the sender's side, so two faces to the same rank (two ranks on a torus) stay apart.
  auto tag = [](const Face& f, int sender_side) { return 2 * f.dim + sender_side; };
  auto face_bytes = [&](const Rect& r) {
    return static_cast<std::size_t>(r.points()) * element_bytes_;
  };
  if (staged_for_ != queue()) {
    send_.clear();
    receive_.clear();
    for (const auto& f : faces_) {
      send_.push_back(std::make_unique<FaceStaging>(queue, face_bytes(f.send), packing_));
      receive_.push_back(std::make_unique<FaceStaging>(queue, face_bytes(f.receive), packing_));
    }
    staged_for_ = queue();
  }
  std::size_t i = 0;
  while (i < faces_.size()) {
    std::size_t end = i;
    while (end < faces_.size() && faces_[end].dim == faces_[i].dim)
      ++end;
    Requests requests(comm);
    for (std::size_t j = i; j < end; ++j)
      requests.receive(receive_[j]->host(), face_bytes(faces_[j].receive), faces_[j].neighbour,
                       tag(faces_[j], 1 - faces_[j].side));
    for (std::size_t j = i; j < end; ++j) {
      send_[j]->download(extended, faces_[j].send, element_bytes_);
      requests.send(send_[j]->host(), face_bytes(faces_[j].send), faces_[j].neighbour,
                    tag(faces_[j], faces_[j].side));
      bytes_sent_ += face_bytes(faces_[j].send);
    }
    requests.wait();
    for (std::size_t j = i; j < end; ++j)
      receive_[j]->upload(extended, faces_[j].receive, element_bytes_);
    i = end;
  }
}

} // namespace tessera::distributed
