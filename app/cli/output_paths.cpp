// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/output_paths.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sim/input_error.h"

namespace gapsim::cli {

namespace fs = std::filesystem;

namespace {

/// Creates `dir` (and its parents) and proves it writable by creating and removing a file in it:
/// permission bits do not stop root, a read-only file system or a full disk do.
void requireWritableDirectory(const fs::path& dir, const std::string& shown, const std::string& option) {
  std::error_code ec;
  const fs::path d = dir.empty() ? fs::path(".") : dir;
  if (fs::exists(d, ec) && !fs::is_directory(d, ec))
    throw InputError(shown, 0, option, "'" + d.string() + "' is not a directory");
  fs::create_directories(d, ec);
  if (ec) throw InputError(shown, 0, option, "cannot create the directory '" + d.string() + "': " + ec.message());
  const fs::path probe = d / (kWriteProbePrefix + std::to_string(::getpid()));
  errno = 0;
  {
    std::ofstream f(probe, std::ios::binary | std::ios::trunc);
    if (f) f << 'x';
    f.flush();
    if (!f) {
      const std::string why = errno ? std::strerror(errno) : "write failed";
      fs::remove(probe, ec);
      throw InputError(shown, 0, option, "cannot write into the directory '" + d.string() + "': " + why);
    }
  }
  fs::remove(probe, ec);
}

}  // namespace

bool onlyLeftoversOfAKilledStart(const std::string& dir, const std::string& state_file) {
  std::error_code ec;
  if (fs::exists(fs::path(dir) / state_file, ec)) return false;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (!e.is_regular_file() ||
        (e.path().extension() != ".tmp" && !e.path().filename().string().starts_with(kWriteProbePrefix)))
      return false;
  return !ec;
}

std::string absolutePath(const std::string& path) {
  return path.empty() ? path : std::filesystem::absolute(path).lexically_normal().string();
}

std::string stemOf(const std::string& path) { return fs::path(path).stem().string(); }

void addForceOption(CLI::App& app, bool& force) {
  app.add_flag("--force", force, "replace output files that exist (refused otherwise)");
}

void claimOutputFile(const std::string& path, bool force, const std::string& option) {
  if (path.empty()) return;
  const fs::path p(path);
  std::error_code ec;
  const fs::file_status st = fs::status(p, ec);
  if (fs::is_directory(st)) throw InputError(path, 0, option, "is a directory; give the name of the file to write");
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    // A device or pipe (/dev/null, /dev/stdout, a FIFO): writing to it replaces nothing.
    if (::access(path.c_str(), W_OK) != 0)
      throw InputError(path, 0, option, "cannot write: " + std::string(std::strerror(errno)));
    return;
  }
  if (fs::exists(st) && !force)
    throw InputError(path, 0, option, "the file exists; use --force to replace it (or choose another name)");
  if (!p.has_filename()) throw InputError(path, 0, option, "names no file");
  requireWritableDirectory(p.parent_path(), path, option);
  if (fs::exists(st) && ::access(path.c_str(), W_OK) != 0)
    throw InputError(path, 0, option, "cannot replace the file: " + std::string(std::strerror(errno)));
}

void claimOutputDir(const std::string& dir, const std::vector<std::string>& files, bool force,
                    const std::string& option) {
  if (dir.empty()) return;
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::exists(st) && !fs::is_directory(st))
    throw InputError(dir, 0, option,
                     fs::is_regular_file(st) ? "is a file, not a directory: give a directory for the outputs"
                                             : "is not a directory: give a directory for the outputs");
  if (!force && fs::is_directory(st)) {
    if (files.empty() && !fs::is_empty(dir, ec))
      throw InputError(dir, 0, option, "the directory is not empty; use --force to write into it (or choose another)");
    for (const auto& f : files)
      if (fs::exists(fs::path(dir) / f, ec))
        throw InputError((fs::path(dir) / f).string(), 0, option,
                         "the file exists; use --force to replace it (or choose another directory)");
  }
  requireWritableDirectory(dir, dir, option);
}

}  // namespace gapsim::cli
