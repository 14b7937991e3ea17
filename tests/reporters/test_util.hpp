// Helpers for the reporter tests: files, a scratch directory, xmllint, the
// golden-file comparison and the time/timestamp normaliser.
#pragma once

#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace idconform::test {

namespace fs = std::filesystem;

inline std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void write_file(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
}

// Removes the scratch directories when the test program exits.
struct ScratchCleanup {
    std::vector<fs::path> dirs;
    ~ScratchCleanup() {
        std::error_code ec;
        for (const auto& d : dirs) fs::remove_all(d, ec);
    }
};

// A fresh directory per call, in the system temp area.
inline fs::path scratch_dir(const std::string& name) {
    static ScratchCleanup cleanup;
    static int counter = 0;
    fs::path dir = fs::temp_directory_path() /
                   ("idconform-reporters-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    cleanup.dirs.push_back(dir);
    return dir;
}

inline fs::path source_path(const std::string& rel) { return fs::path(IDCONFORM_SOURCE_DIR) / rel; }

struct CommandResult {
    int exit_code = -1;
    std::string output;
};

// Runs xmllint with the given arguments on file; exit code and output.
inline CommandResult xmllint(const std::string& args, const fs::path& file) {
    // The log goes to the temp area: file may be in the source tree.
    static int counter = 0;
    const fs::path log = fs::temp_directory_path() /
                         ("idconform-xmllint-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".log");
    const std::string cmd = "xmllint " + args + " '" + file.string() + "' > '" + log.string() + "' 2>&1";
    const int status = std::system(cmd.c_str());
    CommandResult r;
    r.exit_code = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.output = read_file(log);
    fs::remove(log);
    return r;
}

inline CommandResult validate_junit(const fs::path& file) {
    return xmllint("--noout --schema '" + source_path("reporters/schema/junit.xsd").string() + "'", file);
}

// Replaces the text after every `key` up to the first character in `stop`
// with `fixed`.
inline std::string replace_values(std::string text, const std::string& key, const std::string& stop,
                                  const std::string& fixed) {
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
        const std::size_t begin = at + key.size();
        const std::size_t end = text.find_first_of(stop, begin);
        if (end == std::string::npos) break;
        text.replace(begin, end - begin, fixed);
        at = begin + fixed.size();
    }
    return text;
}

// Replaces what changes from run to run (times, timestamps) with fixed
// values, in XML attributes and JSON members alike. The fixed timestamp is a
// valid ISO-8601 one, so the approved JUnit file still passes the schema.
// (Hand-written rather than std::regex: GCC 12's <regex> trips
// -Wmaybe-uninitialized in the sanitizer build.)
inline std::string normalise(std::string text) {
    const std::string ts = "2000-01-01T00:00:00.000Z";
    text = replace_values(std::move(text), " time=\"", "\"", "0.000");
    text = replace_values(std::move(text), " timestamp=\"", "\"", ts);
    text = replace_values(std::move(text), "\"time\": ", ",\n}", "0.000");
    text = replace_values(std::move(text), "\"timestamp\": \"", "\"", ts);
    return text;
}

// Compares text (normalised) with an approved file in tests/reporters/golden.
// IDCONFORM_UPDATE_GOLDEN=1 rewrites the approved file instead: review the
// diff before committing it.
inline void check_golden(const std::string& name, const std::string& actual) {
    const fs::path golden = source_path("tests/reporters/golden/" + name);
    const std::string normalised = normalise(actual);
    const char* update = std::getenv("IDCONFORM_UPDATE_GOLDEN");
    if (update != nullptr && std::string(update) == "1") {
        write_file(golden, normalised);
        MESSAGE("updated golden file " << golden.string());
        return;
    }
    REQUIRE_MESSAGE(fs::exists(golden), "missing golden file " << golden.string());
    const std::string expected = read_file(golden);
    if (expected != normalised) {
        const fs::path got = fs::temp_directory_path() / ("idconform-" + name + ".actual");
        write_file(got, normalised);
        FAIL_CHECK("output differs from " << golden.string() << "; actual output written to " << got.string()
                                          << " (diff them; IDCONFORM_UPDATE_GOLDEN=1 approves)");
    }
}

}  // namespace idconform::test
