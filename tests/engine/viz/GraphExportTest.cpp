// Writing graphs to files (viz/GraphExport.h): atomic, never a partial file.
#include "viz/GraphExport.h"
#include "VizTestUtil.h"
#include "viz/Dot.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace bs;
using namespace bs::viz;
using namespace bs::viz::test;

namespace fs = std::filesystem;

namespace {

/// A fresh empty folder for one test, removed afterwards.
class TempDir {
public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_path = fs::temp_directory_path() /
                 ("bs_viz_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
        fs::remove_all(m_path);
        fs::create_directories(m_path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(m_path, fs::perms::owner_all, ec);
        fs::remove_all(m_path, ec);
    }
    fs::path operator/(const std::string& name) const { return m_path / name; }
    /// Every entry of the folder, by name.
    std::vector<std::string> entries() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(m_path))
            out.push_back(e.path().filename().string());
        return out;
    }

private:
    fs::path m_path;
};

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

Graph smallGraph() {
    Ex4 ex;
    return stageDag({ex.s});
}

} // namespace

TEST(GraphExport, WritesDotText) {
    TempDir dir;
    Graph g = smallGraph();
    writeGraph(g, GraphFormat::Dot, (dir / "dag.dot").string());
    EXPECT_EQ(readFile(dir / "dag.dot"), toDot(g));
    EXPECT_EQ(dir.entries(), (Names{"dag.dot"})); // no temporary left behind
}

TEST(GraphExport, ReplacesAnExistingFileWhole) {
    TempDir dir;
    std::ofstream(dir / "out.dot") << std::string(100000, 'x');
    writeFileAtomically((dir / "out.dot").string(), "new");
    EXPECT_EQ(readFile(dir / "out.dot"), "new");
    EXPECT_EQ(dir.entries(), (Names{"out.dot"}));
}

TEST(GraphExport, MissingFolderIsAUserErrorAndWritesNothing) {
    TempDir dir;
    std::string path = (dir / "missing" / "out.dot").string();
    try {
        writeGraph(smallGraph(), GraphFormat::Dot, path);
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot write '" + path + "': No such file or directory");
    }
    EXPECT_TRUE(dir.entries().empty());
}

TEST(GraphExport, FolderAsOutputIsAUserError) {
    TempDir dir;
    fs::create_directories(dir / "sub");
    EXPECT_THROW(writeGraph(smallGraph(), GraphFormat::Dot, (dir / "sub").string()), UserError);
    EXPECT_TRUE(fs::is_directory(dir / "sub"));
}

TEST(GraphExport, UnwritableFolderLeavesNoFile) {
    if (::geteuid() == 0)
        GTEST_SKIP() << "root writes into read-only folders";
    TempDir dir;
    fs::create_directories(dir / "ro");
    fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_THROW(writeGraph(smallGraph(), GraphFormat::Dot, (dir / "ro" / "g.dot").string()),
                 UserError);
    fs::permissions(dir / "ro", fs::perms::owner_all);
    EXPECT_TRUE(fs::is_empty(dir / "ro"));
}

TEST(GraphExport, FailedWriteLeavesTheOldFileAndNoTemporary) {
    // A file size limit makes the write fail after the temporary exists (EFBIG; SIGXFSZ
    // ignored): the temporary must go and the old file stay as it was.
    TempDir dir;
    std::ofstream(dir / "keep.dot") << "old";
    struct rlimit previousLimit;
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &previousLimit), 0);
    struct rlimit small = previousLimit;
    small.rlim_cur = 16;
    auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string message;
    try {
        writeFileAtomically((dir / "keep.dot").string(), std::string(4096, 'x'));
    } catch (const UserError& e) {
        message = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &previousLimit);
    std::signal(SIGXFSZ, previousHandler);
    EXPECT_NE(message.find("File too large"), std::string::npos) << message;
    EXPECT_EQ(readFile(dir / "keep.dot"), "old");
    EXPECT_EQ(dir.entries(), (Names{"keep.dot"}));
}

TEST(GraphExport, RenderFailureTouchesNoFile) {
    if (graphvizAvailable())
        GTEST_SKIP() << "SVG renders with Graphviz";
    TempDir dir;
    std::ofstream(dir / "keep.svg") << "old";
    EXPECT_THROW(writeGraph(smallGraph(), GraphFormat::Svg, (dir / "keep.svg").string()),
                 UserError);
    EXPECT_EQ(readFile(dir / "keep.svg"), "old");
    EXPECT_EQ(dir.entries(), (Names{"keep.svg"}));
}

TEST(GraphExport, EmptyFileNameIsAUserError) {
    TempDir dir;
    EXPECT_THROW(writeFileAtomically((dir / "").string(), "x"), UserError);
    EXPECT_THROW(writeFileAtomically("", "x"), UserError);
    EXPECT_TRUE(dir.entries().empty());
}

TEST(GraphExport, WritesSvgAndPngWithGraphviz) {
    if (!graphvizAvailable())
        GTEST_SKIP() << "built without Graphviz";
    TempDir dir;
    Graph g = smallGraph();
    writeGraph(g, GraphFormat::Svg, (dir / "g.svg").string());
    writeGraph(g, GraphFormat::Png, (dir / "g.png").string());
    EXPECT_NE(readFile(dir / "g.svg").find("<svg"), std::string::npos);
    EXPECT_EQ(readFile(dir / "g.png").substr(0, 4), "\x89PNG");
}
