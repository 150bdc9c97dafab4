/// \file
/// Threads with a deep stack. The engine's visitors recurse once per level of an expression,
/// and a script can build expressions tens of thousands of levels deep (a long sum written as a
/// Python loop), which would overflow a default 8 MiB stack and kill the process. The CLI's
/// work, the Python thread and the app's analyses run on threads made here, whose stack is
/// reserved (not committed) at kDeepStackBytes, so such depth costs only time.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

namespace bs {

inline constexpr size_t kDeepStackBytes = size_t(1) << 30;

/// Starts `body` on a new detached thread with a kDeepStackBytes stack. Throws
/// std::system_error when the thread cannot be created.
void startDeepStackThread(std::function<void()> body);

/// Runs `body` on a new thread with a kDeepStackBytes stack, waits for it, and returns what it
/// returned or rethrows what it threw.
void runOnDeepStack(const std::function<void()>& body);

template <typename F> auto callOnDeepStack(F&& body) -> std::invoke_result_t<F> {
    using Result = std::invoke_result_t<F>;
    std::exception_ptr error;
    if constexpr (std::is_void_v<Result>) {
        runOnDeepStack([&] {
            try {
                body();
            } catch (...) {
                error = std::current_exception();
            }
        });
        if (error)
            std::rethrow_exception(error);
    } else {
        std::optional<Result> result;
        runOnDeepStack([&] {
            try {
                result.emplace(body());
            } catch (...) {
                error = std::current_exception();
            }
        });
        if (error)
            std::rethrow_exception(error);
        return std::move(*result);
    }
}

} // namespace bs
