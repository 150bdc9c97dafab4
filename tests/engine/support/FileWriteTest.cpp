// writeFileAtomically (support/FileWrite.h): what an existing file was stays so, apart from its
// bytes (a script edited in place with `boundscope edit -i`, an export over an old one).
#include "support/FileWrite.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace bs {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

fs::path freshFolder(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

TEST(FileWrite, ASymbolicLinkStaysALinkAndItsTargetIsWritten) {
    const fs::path dir = freshFolder("bs_filewrite_link");
    writeFileAtomically((dir / "real.py").string(), "old\n");
    fs::create_symlink("real.py", dir / "link.py");
    writeFileAtomically((dir / "link.py").string(), "new\n");
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir / "link.py")));
    EXPECT_EQ(contents(dir / "real.py"), "new\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
    fs::remove_all(dir);
}

TEST(FileWrite, AnExistingFileKeepsItsPermissions) {
    const fs::path dir = freshFolder("bs_filewrite_mode");
    const fs::path file = dir / "script.py";
    writeFileAtomically(file.string(), "a\n");
    const fs::perms mode = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec;
    fs::permissions(file, mode);
    writeFileAtomically(file.string(), "b\n");
    EXPECT_EQ(fs::status(file).permissions(), mode);
    EXPECT_EQ(contents(file), "b\n");
    fs::remove_all(dir);
}

} // namespace
} // namespace bs
