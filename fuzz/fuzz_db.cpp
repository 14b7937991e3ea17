// Fuzz target: what idconform db reads that others write. The first byte
// picks the reader: even, the config file (config.hpp: a refused file must
// say why); odd, a binary COPY stream from the server (copy_binary.hpp, fed
// in pieces of the size the second byte gives, one or two fields a row)
// whose values go through a ValueTally of every type family and kind the
// third byte picks, and its findings are made (checks.hpp).
#include "db/checks.hpp"
#include "db/config.hpp"
#include "db/copy_binary.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace idconform;
using namespace idconform::db;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 3) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 3, size - 3);
    if (data[0] % 2 == 0) {
        const ConfigLoad load = load_config_text(std::string(rest), "db.yaml");
        if (!load.config && load.diagnostics.empty()) std::abort();  // refused without saying why
        if (load.config && !load.diagnostics.empty()) std::abort();
        return 0;
    }
    const std::size_t fields = data[0] & 2 ? 2 : 1;
    const std::size_t piece = 1 + data[1] % 64;
    const TypeFamily family = static_cast<TypeFamily>(data[2] % 3);  // uuid, text, integer
    const auto kinds = ids::all_kinds;
    const std::optional<ids::IdKind> kind =
        (data[2] / 3) % (kinds.size() + 1) == 0 ? std::nullopt
                                               : std::optional<ids::IdKind>(kinds[(data[2] / 3) % (kinds.size() + 1) - 1]);
    ValueTally tally(family, kind);
    tally.set_clock(1700000000000, 5000);
    tally.set_legacy_salt(std::string("salt"));
    TimeTally times;
    BinaryCopy copy(fields);
    bool stop = false;
    for (std::size_t i = 0; i < rest.size(); i += piece) {
        const bool ok = copy.feed_rows(rest.substr(i, piece),
                                       [&](const Value* v, std::size_t n) {
                                           if (n != fields) std::abort();
                                           tally.add(v[0]);
                                           if (n == 2) times.add(v);
                                           return true;
                                       },
                                       stop);
        if (!ok) {
            if (copy.error.empty()) std::abort();  // failed without saying why
            break;
        }
    }
    Table t;
    t.schema = "s";
    t.name = "t";
    Column c;
    c.name = "id";
    c.family = family;
    t.columns.push_back(c);
    JudgedColumn j;
    j.table = &t;
    j.column = &t.columns[0];
    j.kind = kind;
    j.key = data[1] & 1;
    (void)tally.findings(j);
    Column time;
    time.name = "created_at";
    time.family = TypeFamily::time;
    (void)times.finding(j, time);
    return 0;
}
