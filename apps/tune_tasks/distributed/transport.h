#pragma once
// How the ranks of a distributed tuning run exchange messages: an MPI
// communicator in production (mpi_transport.h), an in-process fake in the
// tests. Sends never wait for the receiver, so that a dead or stopped rank
// cannot stall rank 0.
#include "measure_wire.h"

#include <optional>
#include <string>

namespace ansor_tasks {

struct Message {
    int source = -1;
    WireTag tag = WireTag::Heartbeat;
    std::string body;
};

class Transport {
public:
    virtual ~Transport() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Queues `body` for `dest` and returns at once; false when the
    // transport already knows `dest` cannot be reached. Safe to call from
    // any thread.
    virtual bool send(int dest, WireTag tag, const std::string &body) = 0;
    // The next message for this rank, waiting up to `timeout_s`; none if
    // nothing came.
    virtual std::optional<Message> receive(double timeout_s) = 0;
    // The job lost a rank (dead, stopped, unreachable): it cannot end with
    // the collective shutdown MPI's finalize is, which would wait for that
    // rank forever; this process then ends without it (mpi_transport.h).
    virtual void skip_finalize() {}
};

}  // namespace ansor_tasks
