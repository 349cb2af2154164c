// Files that are never lost or half written: locked, atomic writes for game files and every
// other file the program writes (docs/hardening.md, "Game files: locking and atomic writes").
//
// The guarantees:
// - Every write goes to a temporary file in the target's folder, is flushed to disk (fsync),
//   renamed over the target and the folder is flushed: a reader sees the old file or the new
//   one, never a mixture, and a killed writer leaves the old file intact.
// - Every write holds an exclusive lock (flock) on the existing target for its whole
//   read-check-write, so two writers of one file run one after the other; the kernel releases
//   the lock when a process dies. A writer waits at most lock_timeout() for the lock, then
//   gives up with a message.
// - Temporary files of writers that were killed are removed by the next writer of that file.
// - A target reached through a symbolic link is written through the link (the link is kept);
//   a target with more than one hard link is refused, since a rename would detach the others.
// - A failing write (disk full, file-size limit, read-only folder) throws tanbo::Error, removes
//   its temporary file and leaves the target exactly as it was.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tanbo {

// How long a writer waits for another writer's lock: TANBO_LOCK_TIMEOUT (seconds, a decimal
// number from 0 = do not wait to 86400) when set, else 10 s. Throws tanbo::Error saying so when
// the variable holds anything else.
std::chrono::milliseconds lock_timeout();

// Writes `contents` to `path` atomically under the lock: the file is replaced, or created when
// it does not exist. Throws tanbo::Error (leaving `path` untouched) when any step fails.
void write_file_atomic(const std::string& path, std::string_view contents);

// The same for a file too large to hold in memory at once: `produce` hands the contents to the
// sink it is given piece by piece, in order. Whatever `produce` throws passes through and leaves
// `path` untouched, as a failing write does.
using FileSink = std::function<void(std::string_view piece)>;
void write_file_atomic(const std::string& path,
                       const std::function<void(const FileSink&)>& produce);

// The same, with `verify` called on the written temporary file (its path, in the target's
// folder) before it replaces `path`: a result too large to hold in memory is checked as a file
// and put in place only when it passes. Whatever `verify` throws leaves `path` untouched, as a
// failing write does. The lock is held while it runs.
using FileCheck = std::function<void(const std::string& written)>;
void write_file_atomic(const std::string& path, const std::function<void(const FileSink&)>& produce,
                       const FileCheck& verify);

// Checks before a long computation that write_file_atomic(path, ...) can write its result: the
// target's folder takes a temporary file and an existing target is a plain file with one name.
// Throws tanbo::Error saying why not; leaves nothing behind.
void check_writable(const std::string& path);

// Refuses (tanbo::Error) an output that is one of the command's inputs (the same file, by a
// link or another name): `output` would replace what the command reads. `option` names the
// output in the message ("--png"). Names that do not exist, or are empty, are not compared.
void check_not_an_input(const std::string& output, const std::vector<std::string>& inputs,
                        std::string_view option);

// Creates `path` with `contents`, atomically and only if no file of that name exists (the
// loser of a race between two creators is told so). Throws tanbo::Error otherwise.
void create_file_exclusive(const std::string& path, std::string_view contents);

// Locks the existing file `path`, reads it (as read_text_file reads game files) and calls `change`
// with its text under the lock. When `change` returns text, that text replaces the file atomically
// before the lock is released; when it returns nullopt, the file is left alone. Whatever
// `change` throws passes through and the file is not changed. Throws tanbo::Error when the
// file cannot be read, locked or written.
void update_file(const std::string& path,
                 const std::function<std::optional<std::string>(const std::string& text)>& change);

// Reads a whole file through the input layer (input_file.hpp): a regular file of at most
// kMaxGameFileBytes; throws tanbo::Error naming it otherwise (`kind`, in the plural, says
// what the limit is for).
std::string read_text_file(const std::string& path, const std::string& kind = "files");

}  // namespace tanbo
