#include "support/DeepStack.h"

#include <memory>
#include <pthread.h>
#include <system_error>

namespace bs {

namespace {

void* threadMain(void* argument) {
    std::unique_ptr<std::function<void()>> body(static_cast<std::function<void()>*>(argument));
    (*body)();
    return nullptr;
}

pthread_t startThread(std::function<void()> body) {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, kDeepStackBytes);
    auto* owned = new std::function<void()>(std::move(body));
    pthread_t thread;
    int error = pthread_create(&thread, &attributes, &threadMain, owned);
    pthread_attr_destroy(&attributes);
    if (error != 0) {
        delete owned;
        throw std::system_error(error, std::generic_category(), "cannot start a thread");
    }
    return thread;
}

} // namespace

void startDeepStackThread(std::function<void()> body) {
    pthread_detach(startThread(std::move(body)));
}

void runOnDeepStack(const std::function<void()>& body) { pthread_join(startThread(body), nullptr); }

} // namespace bs
