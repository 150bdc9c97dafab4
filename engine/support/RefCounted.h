/// \file
/// Intrusive reference counting for the engine's immutable objects (IR nodes, IterVars,
/// operations). Handles are cheap to copy; the count is atomic because analyses run on a
/// worker thread while results are read on another.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace bs {

/// Base of every reference-counted object.
class RefCounted {
public:
    RefCounted() = default;
    RefCounted(const RefCounted&) : m_refCount(0) {}
    RefCounted& operator=(const RefCounted&) { return *this; }
    virtual ~RefCounted() = default;

    void incRef() const { m_refCount.fetch_add(1, std::memory_order_relaxed); }
    void decRef() const {
        if (m_refCount.fetch_sub(1, std::memory_order_acq_rel) == 1)
            delete this;
    }
    int32_t useCount() const { return m_refCount.load(std::memory_order_relaxed); }

private:
    mutable std::atomic<int32_t> m_refCount{0};
};

/// A shared pointer to a RefCounted object, with the count kept in the object.
template <typename T> class IntrusivePtr {
public:
    IntrusivePtr() = default;
    IntrusivePtr(std::nullptr_t) {}
    explicit IntrusivePtr(T* ptr) : m_ptr(ptr) {
        if (m_ptr)
            m_ptr->incRef();
    }
    IntrusivePtr(const IntrusivePtr& other) : m_ptr(other.m_ptr) {
        if (m_ptr)
            m_ptr->incRef();
    }
    IntrusivePtr(IntrusivePtr&& other) noexcept : m_ptr(std::exchange(other.m_ptr, nullptr)) {}
    template <typename U>
    IntrusivePtr(const IntrusivePtr<U>& other) : IntrusivePtr(static_cast<T*>(other.get())) {}
    ~IntrusivePtr() {
        if (m_ptr)
            m_ptr->decRef();
    }
    IntrusivePtr& operator=(IntrusivePtr other) noexcept {
        std::swap(m_ptr, other.m_ptr);
        return *this;
    }

    T* get() const { return m_ptr; }
    T* operator->() const { return m_ptr; }
    T& operator*() const { return *m_ptr; }
    explicit operator bool() const { return m_ptr != nullptr; }

private:
    T* m_ptr = nullptr;
};

template <typename T, typename... Args> IntrusivePtr<T> makeIntrusive(Args&&... args) {
    return IntrusivePtr<T>(new T(std::forward<Args>(args)...));
}

} // namespace bs
