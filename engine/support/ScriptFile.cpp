#include "support/ScriptFile.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

namespace bs {

std::string whyScriptUnreadable(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        return std::strerror(errno);
    if (S_ISDIR(st.st_mode))
        return "it is a folder";
    if (!S_ISREG(st.st_mode))
        return "it is not a regular file (a device, a pipe or a socket)";
    if (std::uintmax_t(st.st_size) > kMaxScriptBytes)
        return "it is larger than " + std::to_string(kMaxScriptBytes >> 20) +
               " MiB, too large for a script";
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::strerror(errno ? errno : EACCES);
    return "";
}

std::optional<std::string> readScriptFile(const std::string& path, std::string& reason) {
    reason = whyScriptUnreadable(path);
    if (!reason.empty())
        return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        reason = std::strerror(errno ? errno : EIO);
        return std::nullopt;
    }
    return text.str();
}

} // namespace bs
