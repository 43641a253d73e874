#include "core/cpp_only.hpp"
#include "core/state_bytes.hpp"

#include <cstring>

namespace pgdp {

void StateWriter::put(std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i) bytes_.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

void StateWriter::put_f64(double value) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    put_u64(bits);
}

void StateWriter::put_varint(std::uint64_t value) {
    while (value >= 0x80) {
        bytes_.push_back(static_cast<unsigned char>(value | 0x80));
        value >>= 7;
    }
    bytes_.push_back(static_cast<unsigned char>(value));
}

StateReader::StateReader(const unsigned char* data, std::size_t size, std::uint8_t version, const char* what)
    : data_(data), size_(size), what_(what) {
    if (size == 0 || data == nullptr) fail("it is empty");
    if (data[0] != version) {
        fail("its version byte is " + std::to_string(data[0]) + ", expected " + std::to_string(version));
    }
}

std::uint64_t StateReader::get(int width) {
    if (remaining() < static_cast<std::size_t>(width)) fail("it ends early");
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i) value |= static_cast<std::uint64_t>(data_[offset_ + i]) << (8 * i);
    offset_ += width;
    return value;
}

double StateReader::get_f64() {
    const std::uint64_t bits = get_u64();
    double value = 0.0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

std::uint64_t StateReader::get_varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (remaining() == 0) fail("it ends early");
        const unsigned char byte = data_[offset_++];
        const std::uint64_t bits = byte & 0x7F;
        if (shift == 63 && bits > 1) fail("a varint exceeds 64 bits");
        value |= bits << shift;
        if ((byte & 0x80) == 0) {
            if (byte == 0 && shift > 0) fail("a varint is not in its shortest form");
            return value;
        }
    }
    fail("a varint exceeds 64 bits");
}

void StateReader::expect_end() const {
    if (remaining() != 0) fail(std::to_string(remaining()) + " bytes follow its end");
}

void StateReader::fail(const std::string& problem) const {
    throw CorruptStateError(std::string("invalid pgdp ") + what_ + ": " + problem);
}

}  // namespace pgdp
