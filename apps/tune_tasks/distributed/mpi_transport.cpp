#include "mpi_transport.h"

#include "util/errors.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <list>
#include <mutex>
#include <thread>

#ifdef ANSOR_WITH_MPI
#include <mpi.h>
#endif

namespace ansor_tasks {

bool launched_by_mpi() {
    // Open MPI, then the PMI variables of MPICH and of the Slurm/PMIx launchers.
    for (const char *v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(v)) return true;
    return false;
}

bool launcher_survives_rank_failure() {
    const char *v = std::getenv("OMPI_MCA_orte_enable_recovery");
    return v && std::strcmp(v, "1") == 0;
}

#ifdef ANSOR_WITH_MPI

bool built_with_mpi() { return true; }

namespace {

class MpiTransport : public Transport {
public:
    MpiTransport() {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
        // A send to a rank that died must come back as an error, not end this one.
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    }

    ~MpiTransport() override {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            // Sends still in flight at the end went to ranks that stopped
            // receiving (dead or hung): give them up so that Finalize does not wait.
            progress_sends();
            for (auto &p : pending_) {
                MPI_Cancel(&p.request);
                MPI_Request_free(&p.request);
            }
            pending_.clear();
        }
        if (!skip_finalize_) MPI_Finalize();
    }

    void skip_finalize() override {
        std::lock_guard<std::mutex> lock(mutex_);
        skip_finalize_ = true;
    }

    int rank() const override { return rank_; }
    int size() const override { return size_; }

    bool send(int dest, WireTag tag, const std::string &body) override {
        std::lock_guard<std::mutex> lock(mutex_);
        progress_sends();
        pending_.push_back({MPI_REQUEST_NULL, body});
        Pending &p = pending_.back();
        int rc = MPI_Isend(p.body.data(), (int)p.body.size(), MPI_CHAR, dest, (int)tag, MPI_COMM_WORLD, &p.request);
        if (rc != MPI_SUCCESS) {
            pending_.pop_back();
            return false;
        }
        return true;
    }

    std::optional<Message> receive(double timeout_s) override {
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
        for (;;) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                progress_sends();
                int flag = 0;
                MPI_Status status;
                if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status) == MPI_SUCCESS && flag) {
                    int count = 0;
                    MPI_Get_count(&status, MPI_CHAR, &count);
                    Message m;
                    m.source = status.MPI_SOURCE;
                    m.tag = (WireTag)status.MPI_TAG;
                    m.body.resize((size_t)count);
                    if (MPI_Recv(m.body.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE) == MPI_SUCCESS) {
                        return m;
                    }
                }
            }
            if (std::chrono::steady_clock::now() >= until) return std::nullopt;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    }

private:
    struct Pending {
        MPI_Request request;
        std::string body;  // the send buffer: kept until the send completes
    };

    // Drops the sends that completed (or failed); the mutex is held.
    void progress_sends() {
        for (auto it = pending_.begin(); it != pending_.end();) {
            int done = 0;
            if (MPI_Test(&it->request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done) it = pending_.erase(it);
            else ++it;
        }
    }

    int rank_ = 0, size_ = 1;
    std::mutex mutex_;
    bool skip_finalize_ = false;
    std::list<Pending> pending_;  // a list: elements never move (short bodies live inside the string), as MPI reads them in place
};

}  // namespace

std::unique_ptr<Transport> start_mpi(int *argc, char ***argv) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
    if (provided < MPI_THREAD_SERIALIZED) {
        MPI_Finalize();
        throw ansor::UserError("the MPI library does not support MPI_THREAD_SERIALIZED, which the worker ranks need");
    }
    return std::make_unique<MpiTransport>();
}

#else

bool built_with_mpi() { return false; }

std::unique_ptr<Transport> start_mpi(int *, char ***) {
    throw ansor::UserError("started by an MPI launcher, but this build has no MPI support: install libopenmpi-dev "
                           "(scripts/setup.sh does) and rebuild");
}

#endif

}  // namespace ansor_tasks
