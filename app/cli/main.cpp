/// `boundscope`: the headless front end. Parses the command line (DESIGN.md, "Command line
/// contract") and runs the one subcommand given; each subcommand is its own file (Commands.h).

#include "Commands.h"

#include "support/Cancellation.h"
#include "support/DeepStack.h"
#include "support/Diagnostic.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

using namespace bs::cli;

namespace {

/// The exit code of a command whose output could not all be written (`lower > /dev/full`):
/// a failure, said on stderr; else `exitCode`.
int checkedOutput(int exitCode) {
    errno = 0;
    std::cout.flush();
    if (std::cout.good() && std::fflush(stdout) == 0)
        return exitCode;
    const int error = errno;
    std::cerr << "boundscope: error: cannot write the output: "
              << (error ? std::strerror(error) : "the write failed") << '\n';
    return kExitFailure;
}

/// Sets a cancellation flag when the command has run for `limit` (none when it is zero), so
/// that work past the script stops at the engine's next check (support/Cancellation.h): an
/// interpreted GPU program that would run for an hour, `--check`'s reference, the timed runs.
class CommandDeadline {
public:
    explicit CommandDeadline(std::chrono::milliseconds limit) {
        if (limit.count() > 0)
            m_watchdog = std::thread([this, limit] {
                std::unique_lock<std::mutex> lock(m_mutex);
                if (!m_wake.wait_for(lock, limit, [this] { return m_finished; }))
                    m_expired = true;
            });
    }
    ~CommandDeadline() {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_finished = true;
        }
        m_wake.notify_all();
        if (m_watchdog.joinable())
            m_watchdog.join();
    }
    CommandDeadline(const CommandDeadline&) = delete;
    CommandDeadline& operator=(const CommandDeadline&) = delete;

    const std::atomic<bool>* flag() const { return &m_expired; }

private:
    std::atomic<bool> m_expired{false};
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_finished = false;
    std::thread m_watchdog;
};

/// `boundscope: error: FILE: stopped after N s ...` for a command the deadline cancelled.
void printTimedOut() {
    const std::string file = commandScriptFile();
    const double seconds = std::chrono::duration<double>(scriptTimeout()).count();
    std::cerr << "boundscope: error: " << (file.empty() ? "" : file + ": ") << "stopped after "
              << seconds
              << " s: the command ran past its time limit (--timeout SECONDS sets it; 0: none; "
                 "the default is "
              << kDefaultScriptTimeoutSeconds << " s)\n";
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Boundscope: explore TVM-style tensor-expression schedules and how InferBound "
                 "derives their loop bounds",
                 "boundscope"};
    app.set_version_flag("--version", std::string("boundscope ") + BOUNDSCOPE_VERSION);
    app.require_subcommand(1);
    const std::vector<Subcommand> commands = {
        addLowerCommand(app),   addBoundsCommand(app),  addStepsCommand(app),
        addTraceCommand(app),   addAllocCommand(app),   addGraphCommand(app),
        addCodegenCommand(app), addRunCommand(app),     addScriptCommand(app),
        addEditCommand(app),    addDiffCommand(app),    addReportCommand(app),
        addHeatmapCommand(app), addAnimateCommand(app),
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        if (error.get_exit_code() == 0)
            return app.exit(error); // --help, --version
        printError(error.what());
        return kExitUsage;
    }
    // The command runs on a thread with a deep stack: the engine recurses through the script's
    // expressions, which can be very deep (support/DeepStack.h).
    startCommandClock();
    CommandDeadline deadline(scriptTimeout());
    return bs::callOnDeepStack([&commands, &deadline]() -> int {
        bs::CancellationScope cancellation(deadline.flag());
        try {
            for (const Subcommand& command : commands)
                if (command.app->parsed())
                    return checkedOutput(command.action());
        } catch (const bs::UserError& error) {
            std::cerr << error.diagnostic().toString() << '\n';
            return kExitFailure;
        } catch (const bs::Cancelled&) {
            printTimedOut();
            return kExitFailure;
        } catch (const std::exception& error) {
            printError(error.what());
            return kExitFailure;
        }
        return kExitUsage;
    });
}
