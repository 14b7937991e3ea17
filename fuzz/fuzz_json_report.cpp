// Fuzz target: the JSON report reader (reporters/json_report_reader.hpp),
// what `report`, `merge` and `--baseline` read. The first input byte picks
// the chunk size (1-64 bytes, or 64 KiB: keys, strings and numbers split
// across chunks) and whether only case outlines are built; the rest is the
// report. Every case read is replayed through the console reporter (the
// escaping of hostile strings) and rendered back to JSON. A report that
// cannot be read must say where ("PATH:LINE:COL: ...").
#include "reporters/console_reporter.hpp"
#include "reporters/json_report_reader.hpp"
#include "reporters/json_reporter.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>

using namespace idconform;
using namespace idconform::reporters;

namespace {

ConsoleOptions verbose() {
    ConsoleOptions o;
    o.verbose = true;  // every case's evidence is printed
    return o;
}

class Sink final : public ReportVisitor {
public:
    // The JSON report is written in place to /dev/null (a device is never
    // replaced): the rendering is what is exercised.
    Sink() : console_(out_, false, false, verbose()), json_("/dev/null") {}
    void head(const ReportHead& h) override {
        RunInfo info = h.info;
        info.total_cases = h.tests;  // what the file claims: nothing may be sized by it
        console_.run_started(info);
        json_.run_started(info);
    }
    void suite_started(const SuiteResult& s) override {
        console_.suite_started(s.name, s.file);
        json_.suite_started(s.name, s.file);
    }
    void take_case(CaseResult&& c) override {
        console_.case_finished(c);
        json_.case_finished(c);
    }
    void suite_finished(const SuiteResult& s) override {
        console_.suite_finished(s);
        json_.suite_finished(s);
    }
    void finish() {
        std::string error;
        (void)console_.run_finished(run_, error);
        (void)json_.run_finished(run_, error);
    }

private:
    std::ostringstream out_;
    ConsoleReporter console_;
    JsonReporter json_;
    RunSummary run_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t sel = data[0];
    // an exact-size heap copy, so ASan sees a read past the end
    const std::size_t n = size - 1;
    const auto exact = std::make_unique<char[]>(n + 1);
    if (n) std::memcpy(exact.get(), data + 1, n);
    ReadOptions opts;
    opts.chunk = (sel & 0x40) ? 64 * 1024 : 1 + (sel % 64);
    opts.case_outline_only = (sel & 0x80) != 0;
    Sink sink;
    std::string error;
    if (read_json_report_text(std::string_view(exact.get(), n), "r.json", sink, error, opts)) {
        sink.finish();
    } else if (error.rfind("r.json:", 0) != 0) {
        std::abort();  // an error that does not name the file
    }
    return 0;
}
