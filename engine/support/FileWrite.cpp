/// Atomic file writes (support/FileWrite.h).
#include "support/FileWrite.h"

#include "support/Diagnostic.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bs {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
    throw UserError("cannot write '" + path + "': " + reason);
}

/// A name no other writer in this or another process uses: `.<name>.<pid>.<n>.tmp` in the
/// folder of `path`, so the final rename stays on one file system.
std::string temporaryPath(const std::filesystem::path& path) {
    static std::atomic<unsigned> counter{0};
    std::string name = "." + path.filename().string() + "." + std::to_string(::getpid()) + "." +
                       std::to_string(counter++) + ".tmp";
    return (path.parent_path() / name).string();
}

/// Writes all of `bytes` to `fd` and, for a file, flushes it to disk; the errno text on
/// failure.
std::string writeAll(int fd, const std::string& bytes, bool sync) {
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return std::strerror(errno);
        done += size_t(n);
    }
    return !sync || ::fsync(fd) == 0 ? "" : std::strerror(errno);
}

/// Writes into a device, a pipe or a socket where it is (`-o /dev/stdout`): there is no file
/// to replace, and renaming over it would replace the device node itself.
void writeInPlace(const std::string& path, const std::string& bytes) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        fail(path, std::strerror(errno));
    std::string error = writeAll(fd, bytes, /*sync=*/false);
    if (::close(fd) != 0 && error.empty())
        error = std::strerror(errno);
    if (!error.empty())
        fail(path, error);
}

} // namespace

void writeFileAtomically(const std::string& path, const std::string& bytes) {
    std::filesystem::path target(path);
    if (path.empty() || target.filename().empty())
        fail(path, "not a file name");
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        fail(path, "it is a folder");
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        return writeInPlace(path, bytes);
    // A symbolic link stays one: the file it points to is the one replaced.
    std::error_code resolved;
    if (std::filesystem::is_symlink(target, resolved))
        target = std::filesystem::weakly_canonical(target, resolved);
    const bool exists = ::stat(target.c_str(), &st) == 0;
    std::string temp = temporaryPath(target);
    // O_EXCL: never follow or reuse an existing name; 0666 lets the umask decide, as for any
    // file the user creates; a file that exists keeps its permissions.
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        fail(path, std::strerror(errno));
    if (exists)
        ::fchmod(fd, st.st_mode & 07777);
    std::string error = writeAll(fd, bytes, /*sync=*/true);
    if (::close(fd) != 0 && error.empty())
        error = std::strerror(errno);
    if (error.empty() && ::rename(temp.c_str(), target.c_str()) != 0)
        error = std::strerror(errno);
    if (!error.empty()) {
        ::unlink(temp.c_str());
        fail(path, error);
    }
}

} // namespace bs
