// A stack that lives as long as the backend (TopMemoryContext), for state pushed and popped around
// PostgreSQL calls (function frames, running statements). push() grows the storage before it
// stores anything, so an allocation error leaves the stack as it was.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "utils/memutils.h"
}

namespace pgdp::pg {

template <typename T>
class BackendStack {
public:
    void push(const T& item) {
        if (count_ == capacity_) {
            const int capacity = capacity_ == 0 ? 16 : capacity_ * 2;
            items_ =
                static_cast<T*>(items_ == nullptr ? MemoryContextAlloc(TopMemoryContext, sizeof(T) * capacity)
                                                  : repalloc(items_, sizeof(T) * capacity));
            capacity_ = capacity;
        }
        items_[count_++] = item;
    }
    // Returns the popped item (a default one if the stack is empty).
    T pop() { return count_ > 0 ? items_[--count_] : T{}; }
    int size() const { return count_; }
    const T& operator[](int i) const { return items_[i]; }
    T& operator[](int i) { return items_[i]; }

private:
    T* items_ = nullptr;
    int count_ = 0;
    int capacity_ = 0;
};

}  // namespace pgdp::pg
