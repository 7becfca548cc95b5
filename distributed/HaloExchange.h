// The halo exchange of the extended block E, one dimension after the other: the faces sent
// along dimension d span the whole of E along the dimensions before d (halos received there
// included), so edge and corner halos arrive without messages of their own. Faces move between
// the device and pinned host memory (FaceStaging.h) on the queue the caller gives (the sweep's
// has no kernels on it: they run meanwhile); the messages are nonblocking MPI. With rectangle
// transfers (Packing::Transfer) a face moves in pieces of about `piece_bytes`: a piece is sent as
// soon as it is on the host and written to the device as soon as it arrives, so the
// device-to-host copies, the messages and the host-to-device copies of a face overlap.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "distributed/BlockGrid.h"
#include "distributed/ColourPacking.h"
#include "distributed/FaceStaging.h"
#include "distributed/Mpi.h"
#include "distributed/Rect.h"

namespace tessera::distributed {

class SharedFaces;

// One face: what this rank sends to a neighbour and where its reply lands.
struct Face {
  int dim = 0, side = 0; // side 0: low, 1: high
  int neighbour = -1;
  Rect send, receive; // regions of E
};

// The faces of a block for halo width h, in exchange order (dimension by dimension).
// `neighbour(dim, side)` gives the rank beyond a side.
std::vector<Face> halo_faces(const Block& block, int64_t h,
                             const std::vector<std::vector<int>>& neighbours);

// The tag of the messages a face's sender on side `sender_side` sends (piece `piece` of it):
// the receiver's mirror face expects it from side 1 - its own side.
int face_tag(const Face& f, int sender_side, int64_t piece = 0);

class HaloExchange {
public:
  HaloExchange(std::vector<Face> faces, std::size_t element_bytes, FaceStaging::Packing packing,
               std::size_t piece_bytes = kPieceBytes);
  static constexpr std::size_t kPieceBytes = std::size_t{2} << 20;
  static constexpr int64_t kMaxPieces = 64; // of a face (the tags leave room for as many)
  ~HaloExchange();
  // Exchanges every face of `extended` with the neighbours, ranks of `comm`. With
  // Packing::Transfer it returns when the halos are on the device; with Packing::OnDevice when
  // their writes are enqueued on `queue` (in order: its later commands see the halos), which
  // must be the queue of the kernels that wrote the faces.
  // `colour` (0 or 1; Packing::OnDevice, after colour_packing): the points of that red-black
  // colour alone move (ColourPacking.h); -1: every point.
  void run(const Communicator& comm, cl::CommandQueue& queue, const cl::Buffer& extended,
           int colour = -1);
  // Lets exchanges carry one colour: `packing` (not owned) enqueues on the exchange's queue;
  // `origin_parity`: the global parity of the extended block's first point.
  void colour_packing(ColourPacking* packing, int origin_parity);
  bool carries_colours() const { return colours_ != nullptr; }
  // The bytes of the largest face (every point).
  std::size_t largest_face_bytes() const;
  // The exchange in two halves around kernels that read no halo, which then run while the
  // messages travel: begin enqueues the faces' reads on `queue` and posts the receives; end
  // waits for the reads, sends, waits for the messages and enqueues the writes (as run does with
  // Packing::OnDevice). Only where splits(): device packing and faces of one dimension (a later
  // dimension's faces carry the halos an earlier one received).
  bool splits() const;
  int dimension() const { return faces_.front().dim; } // of the faces, where splits()
  void begin(const Communicator& comm, cl::CommandQueue& queue, const cl::Buffer& extended,
             int colour = -1);
  void end();
  // Collective over `comm` (the ranks whose faces these are, each in the same order): faces to
  // ranks of this host travel through memory both ranks map (SharedFaces.h), not MPI messages.
  void share_host_memory(const Communicator& comm);
  // How many faces travel through shared memory.
  std::size_t shared_faces() const;
  // Bytes this rank sent in all runs.
  uint64_t bytes_sent() const { return bytes_sent_; }
  void reset_count() {
    bytes_sent_ = 0;
    seconds_ = 0;
  }
  // With Packing::OnDevice: the time of this rank's exchanges themselves, in all runs since
  // reset_count: the faces' reads (profiled), the messages and the writes' enqueueing; not the
  // wait for the kernels before them, nor the writes' device time (the next kernel's wait).
  double seconds() const { return seconds_; }
  // What its transfers are called in a timeline (runtime/Timeline.h): "halo face" by default.
  void set_label(std::string label) { label_ = std::move(label); }

private:
  // The bytes of a region of E: of its points of one colour (0, 1) or all of them (-1).
  std::size_t bytes(const Rect& region, int colour = -1) const;
  // The staging buffers, made for `queue` (again when it changes).
  void stage(cl::CommandQueue& queue);
  // The faces [first, last) of one dimension: whole (device packing, begun and ended), or in
  // pieces.
  void begin_faces(const Communicator& comm, const cl::Buffer& extended, std::size_t first,
                   std::size_t last, int colour);
  void end_faces();
  void exchange_pieces(const Communicator& comm, cl::CommandQueue& queue,
                       const cl::Buffer& extended, std::size_t first, std::size_t last);
  bool shared(std::size_t face) const;
  // Waits for the writes of received faces still enqueued; releases their shared slots.
  void finish_uploads();
  std::vector<Face> faces_;
  std::size_t element_bytes_;
  FaceStaging::Packing packing_;
  std::size_t piece_bytes_;
  // Per face, its sent and its received half; made on the first run, for that run's queue.
  std::vector<std::unique_ptr<FaceStaging>> send_, receive_;
  cl_command_queue staged_for_ = nullptr;
  std::vector<cl::Event> uploads_; // the last exchange's writes, still enqueued (OnDevice)
  std::unique_ptr<SharedFaces> shared_;
  std::vector<uint64_t> count_;                              // per face, its exchanges so far
  std::vector<std::pair<std::size_t, uint64_t>> unreleased_; // shared slots uploads_ read
  struct Pending {                                           // an exchange begun and not yet ended
    Requests requests;
    std::size_t first, last; // its faces
    int colour;              // -1: every point
    cl::Buffer extended;
    std::vector<cl::Event> downloads;
  };
  std::unique_ptr<Pending> pending_;
  ColourPacking* colours_ = nullptr;
  int origin_parity_ = 0;
  uint64_t bytes_sent_ = 0;
  double seconds_ = 0;
  std::string label_ = "halo face";
};

} // namespace tessera::distributed
