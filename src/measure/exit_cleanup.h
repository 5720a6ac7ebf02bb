#pragma once
// Directories that go away with the process: the tuner's temporary
// directories are removed when SIGINT, SIGTERM or SIGHUP ends it (Ctrl-C,
// `kill`, a closed terminal) and when it calls exit() before their owners
// removed them.
//
// The tuner runs inside a user's generator, so the handlers are installed
// with care (on the first registration, once per signal):
//  - a signal the process ignores (SIG_IGN, e.g. a background job's SIGINT)
//    stays ignored: it does not end the process;
//  - for a signal with the default action, the handler removes the
//    registered directories, restores the default action and raises the
//    signal again, so the process ends exactly as it would have (status,
//    core, the parent's view);
//  - a handler the program installed before is called instead, and nothing
//    is removed there: such a handler may let the process go on (Python's
//    sets a flag), and the directories are still in use. If it calls
//    exit(), the atexit cleanup removes them.
// Only async-signal-safe work happens in the handler: the paths live in a
// fixed table written before a directory is announced (no allocation, no
// lock), and removal walks each tree with openat/getdents64/unlinkat. Only
// the process that registered a path removes it, so a forked child that
// inherits the handler leaves its parent's directories alone.
//
// What no handler can catch (kill -9, a crash, a handler of the program's
// that ends the process with _exit) leaves the directories behind; the
// next tuner's start-up sweep removes those whose owner is dead (temp_dirs.h).
#include <string>

namespace ansor {

// Registers `path` (absolute) for removal as described above; false if the
// table is full or the path too long (it is then only removed by its owner
// or a later sweep).
bool remove_at_exit(const std::string &path);

// Forgets `path` (its owner removes it now).
void keep_at_exit(const std::string &path);

// Removes `path` and everything under it with system calls only (safe in a
// signal handler); true if nothing is left.
bool remove_tree_now(const char *path);

}  // namespace ansor
