// Bytes of an aggregate state that crosses a process boundary (parallel workers, Citus
// partials): a version byte, then little-endian fixed-width fields, read back with every length
// and value checked. The histogram, distinct-count and bounds states use it; the shim copies the
// bytes into a bytea and back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgdp {

// A serialized state that is not one this version wrote: wrong version byte, length or field.
// Not a user error: the shim reports it as corrupted data (another node's pgdp version, a bug).
class CorruptStateError : public std::runtime_error {
public:
    explicit CorruptStateError(const std::string& what) : std::runtime_error(what) {}
};

using StateBytes = std::vector<unsigned char>;

class StateWriter {
public:
    explicit StateWriter(std::uint8_t version) { bytes_.push_back(version); }
    void put_u32(std::uint32_t value) { put(value, 4); }
    void put_u64(std::uint64_t value) { put(value, 8); }
    void put_i64(std::int64_t value) { put(static_cast<std::uint64_t>(value), 8); }
    void put_f64(double value);
    // LEB128, 7 bits a byte, least significant first: small numbers take few bytes.
    void put_varint(std::uint64_t value);
    StateBytes take() { return std::move(bytes_); }

private:
    void put(std::uint64_t value, int width);
    StateBytes bytes_;
};

class StateReader {
public:
    // Throws CorruptStateError unless the first byte is `version`. `what` names the state in
    // messages ("histogram state").
    StateReader(const unsigned char* data, std::size_t size, std::uint8_t version, const char* what);
    std::uint32_t get_u32() { return static_cast<std::uint32_t>(get(4)); }
    std::uint64_t get_u64() { return get(8); }
    std::int64_t get_i64() { return static_cast<std::int64_t>(get(8)); }
    double get_f64();
    // A varint in its shortest form (CorruptStateError for a longer one or one past 64 bits).
    std::uint64_t get_varint();
    std::size_t remaining() const { return size_ - offset_; }
    // CorruptStateError unless every byte was read.
    void expect_end() const;
    [[noreturn]] void fail(const std::string& problem) const;

private:
    std::uint64_t get(int width);
    const unsigned char* data_;
    std::size_t size_;
    std::size_t offset_ = 1;
    const char* what_;
};

}  // namespace pgdp
