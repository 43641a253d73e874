// Minimal reader for the reference CSV files of test/reference/ (written by
// test/reference/generate_references.cpp). The files have a header line, comma-separated fields,
// no quoting; empty fields are allowed. Paths are relative to test/ (make unittest runs there).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgdp_test {

class ReferenceCsv {
public:
    explicit ReferenceCsv(const std::string& path) : path_(path) {
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot open reference file " + path + " (run from test/)");
        std::string line;
        if (!std::getline(in, line)) throw std::runtime_error("empty reference file " + path);
        const std::vector<std::string> header = split(line);
        for (std::size_t i = 0; i < header.size(); ++i) column_[header[i]] = i;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            std::vector<std::string> fields = split(line);
            if (fields.size() != header.size())
                throw std::runtime_error("bad field count in " + path + ": " + line);
            rows_.push_back(std::move(fields));
        }
    }

    std::size_t size() const { return rows_.size(); }
    const std::string& path() const { return path_; }

    const std::string& str(std::size_t row, const std::string& name) const {
        return rows_.at(row).at(index(name));
    }
    // strtod of the field: the generator wrote inputs with %.17g, so this is exactly the double the
    // reference was computed at; outputs (30 digits) are rounded to the nearest double.
    double num(std::size_t row, const std::string& name) const {
        return std::strtod(str(row, name).c_str(), nullptr);
    }
    // The 30-digit reference rounded to the nearest long double (64-bit mantissa on x86-64).
    long double ld(std::size_t row, const std::string& name) const {
        return std::strtold(str(row, name).c_str(), nullptr);
    }
    // "function=..., epsilon=..." for failure messages.
    std::string describe(std::size_t row) const {
        std::string s;
        for (const auto& [name, i] : column_) {
            (void)i;
            if (!s.empty()) s += ", ";
            s += name + "=" + str(row, name);
        }
        return s;
    }

private:
    std::size_t index(const std::string& name) const {
        auto it = column_.find(name);
        if (it == column_.end()) throw std::runtime_error("no column " + name + " in " + path_);
        return it->second;
    }
    static std::vector<std::string> split(const std::string& line) {
        std::vector<std::string> out;
        std::size_t start = 0;
        for (;;) {
            std::size_t comma = line.find(',', start);
            if (comma == std::string::npos) {
                std::string last = line.substr(start);
                if (!last.empty() && last.back() == '\r') last.pop_back();
                out.push_back(last);
                return out;
            }
            out.push_back(line.substr(start, comma - start));
            start = comma + 1;
        }
    }

    std::string path_;
    std::map<std::string, std::size_t> column_;
    std::vector<std::vector<std::string>> rows_;
};

// Relative error |got - want| / |want| in long double (0 when both are 0).
inline long double relative_error(long double got, long double want) {
    const long double diff = got > want ? got - want : want - got;
    if (want == 0) return diff;
    return diff / (want < 0 ? -want : want);
}

// A long double with 21 significant digits, for failure messages.
inline std::string fmt(long double v) {
    std::ostringstream s;
    s << std::setprecision(21) << v;
    return s.str();
}

// Reports the first 15 failures of a sweep (the rest are only counted), so that a broken formula
// does not flood the output.
class FailureLog {
public:
    void fail(const std::string& what) {
        if (count_++ < 15) ADD_FAILURE() << what;
    }
    int count() const { return count_; }

private:
    int count_ = 0;
};

}  // namespace pgdp_test
