// Kafka requests in the shared model: encoding, parsing, matching, kcat.
#include "transport/kafka/kafka_request.hpp"
#include "core/strings.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace idconform::transport::kafka {

namespace json = boost::json;
using Parsed = boost::system::result<Spec, std::string>;

namespace {

std::string encode(std::string_view s) { return percent_encode(s, "/:"); }  // core/strings.hpp

template <class T>
std::optional<T> number(std::string_view s) {
    T v{};
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}


}  // namespace

bool valid_topic(std::string_view t) noexcept {
    if (t.empty() || t.size() > 249 || t == "." || t == "..") return false;
    return std::all_of(t.begin(), t.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    });
}

Request to_request(const Spec& s) {
    Request r;
    r.transport = "kafka";
    r.url = "kafka://" + s.topic;
    std::string q;
    auto add = [&q](std::string_view k, std::string_view v) {
        q += (q.empty() ? "?" : "&") + encode(k) + "=" + encode(v);
    };
    if (s.op == Spec::Op::produce) {
        r.method = "produce";
        if (s.partition) add("partition", std::to_string(*s.partition));
        if (s.key) r.headers.push_back({std::string(key_header), *s.key});
        for (const auto& h : s.headers) r.headers.push_back(h);
        r.body = s.payload;
    } else {
        r.method = "consume";
        switch (s.start.kind) {
            case Start::Kind::end: add("from", "end"); break;
            case Start::Kind::beginning: add("from", "beginning"); break;
            case Start::Kind::timestamp: add("from", "timestamp:" + std::to_string(s.start.value)); break;
            case Start::Kind::offset: add("from", "offset:" + std::to_string(s.start.value)); break;
        }
        if (!s.partitions.empty()) {
            std::string ps;
            for (int p : s.partitions) ps += (ps.empty() ? "" : ",") + std::to_string(p);
            add("partitions", ps);
        }
        if (s.timeout) add("timeout_ms", std::to_string(s.timeout->count()));
        for (const auto& m : s.match) {
            switch (m.kind) {
                case Match::Kind::key: add("match.key", m.value); break;
                case Match::Kind::header: add("match.header." + m.name, m.value); break;
                case Match::Kind::json: add("match.json." + m.name, m.value); break;
            }
        }
    }
    r.url += q;
    return r;
}

Parsed parse_request(const Request& r) {
    auto fail = [](std::string m) { return Parsed(boost::system::in_place_error, std::move(m)); };
    Spec s;
    if (r.method == "produce") s.op = Spec::Op::produce;
    else if (r.method == "consume") s.op = Spec::Op::consume;
    else return fail("unknown Kafka operation '" + r.method + "' (produce or consume)");
    auto u = boost::urls::parse_uri(r.url);
    if (!u || u->scheme() != "kafka") return fail("not a kafka:// URL: '" + r.url + "'");
    s.topic = u->host();
    if (!valid_topic(s.topic)) return fail("bad Kafka topic '" + s.topic + "' (1-249 of a-z A-Z 0-9 . _ -)");
    for (const auto& p : u->params()) {
        const std::string k = p.key;
        const std::string v = p.value;
        if (s.op == Spec::Op::produce && k == "partition") {
            auto n = number<int>(v);
            if (!n || *n < 0) return fail("bad partition '" + v + "'");
            s.partition = n;
        } else if (s.op == Spec::Op::consume && k == "from") {
            if (v == "end") s.start.kind = Start::Kind::end;
            else if (v == "beginning") s.start.kind = Start::Kind::beginning;
            else if (v.rfind("timestamp:", 0) == 0 || v.rfind("offset:", 0) == 0) {
                const bool ts = v[0] == 't';
                auto n = number<std::int64_t>(std::string_view(v).substr(ts ? 10 : 7));
                if (!n || *n < 0) return fail("bad start '" + v + "'");
                s.start = Start{ts ? Start::Kind::timestamp : Start::Kind::offset, *n};
            } else {
                return fail("bad start '" + v + "' (end, beginning, timestamp:MS or offset:N)");
            }
        } else if (s.op == Spec::Op::consume && k == "partitions") {
            std::string_view rest = v;
            while (!rest.empty()) {
                const auto comma = rest.find(',');
                auto n = number<int>(rest.substr(0, comma));
                if (!n || *n < 0) return fail("bad partition list '" + v + "'");
                s.partitions.push_back(*n);
                rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
            }
        } else if (s.op == Spec::Op::consume && k == "timeout_ms") {
            auto n = number<long>(v);
            if (!n || *n < 0) return fail("bad timeout_ms '" + v + "'");
            s.timeout = std::chrono::milliseconds(*n);
        } else if (s.op == Spec::Op::consume && k == "match.key") {
            s.match.push_back({Match::Kind::key, {}, v});
        } else if (s.op == Spec::Op::consume && k.rfind("match.header.", 0) == 0 && k.size() > 13) {
            s.match.push_back({Match::Kind::header, k.substr(13), v});
        } else if (s.op == Spec::Op::consume && k.rfind("match.json.", 0) == 0) {
            s.match.push_back({Match::Kind::json, k.substr(11), v});
        } else {
            return fail("unknown parameter '" + k + "' in " + r.method + " URL");
        }
    }
    if (s.op == Spec::Op::produce) {
        for (const auto& h : r.headers) {
            if (iequals(h.name, key_header)) s.key = h.value;
            else s.headers.push_back(h);
        }
        s.payload = r.body;
    }
    return s;
}

bool matches(const std::vector<Match>& match, const Message& m) {
    std::optional<json::value> parsed;
    bool tried = false;
    for (const auto& c : match) {
        switch (c.kind) {
            case Match::Kind::key:
                if (!m.key || *m.key != c.value) return false;
                break;
            case Match::Kind::header: {
                // The last header of that name wins, as in librdkafka's get_last.
                const Header* found = nullptr;
                for (const auto& h : m.headers)
                    if (h.name == c.name) found = &h;
                if (!found || found->value != c.value) return false;
                break;
            }
            case Match::Kind::json: {
                if (!tried) {
                    tried = true;
                    boost::system::error_code ec;
                    json::value v = json::parse(m.payload, ec);
                    if (!ec) parsed = std::move(v);
                }
                if (!parsed) return false;
                boost::system::error_code ec;
                const json::value* v = parsed->find_pointer(c.name, ec);
                if (!v) return false;
                if (v->is_string() ? v->as_string() != c.value : json::serialize(*v) != c.value) return false;
                break;
            }
        }
    }
    return true;
}

std::string describe(const std::vector<Match>& match) {
    if (match.empty()) return "any message";
    std::string out;
    for (const auto& c : match) {
        if (!out.empty()) out += " and ";
        switch (c.kind) {
            case Match::Kind::key: out += "key = '" + c.value + "'"; break;
            case Match::Kind::header: out += "header " + c.name + " = '" + c.value + "'"; break;
            case Match::Kind::json: out += c.name + " = '" + c.value + "'"; break;
        }
    }
    return out;
}

std::string kcat_command(const Request& r, std::string_view brokers) {
    auto spec = parse_request(r);
    if (!spec) return "# " + spec.error();
    const Spec& s = *spec;
    std::string c = "kcat -b " + shell_quote(brokers) + " -t " + shell_quote(s.topic);
    if (s.op == Spec::Op::produce) {
        c += " -P";
        if (s.partition) c += " -p " + std::to_string(*s.partition);
        if (s.key) c += " -K '\\t'";
        for (const auto& h : s.headers) c += " -H " + shell_quote(h.name + "=" + h.value);
        // One message per line: the key (when there is one), a tab, the payload.
        std::string line = (s.key ? *s.key + "\t" : "") + s.payload;
        return "printf '%s\\n' " + shell_quote(line) + " | " + c;
    }
    c += " -C -e -J";
    for (int p : s.partitions) c += " -p " + std::to_string(p);
    switch (s.start.kind) {
        case Start::Kind::end: c += " -o end"; break;
        case Start::Kind::beginning: c += " -o beginning"; break;
        case Start::Kind::timestamp: c += " -o s@" + std::to_string(s.start.value); break;
        case Start::Kind::offset: c += " -o " + std::to_string(s.start.value); break;
    }
    return c + "  # then look for " + describe(s.match);
}

bool secret_property(std::string_view name) noexcept {
    std::string n(name);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    for (std::string_view w : {"password", "secret", "ssl.key.pem", "sasl.oauthbearer.config", "sasl.jaas", "token"})
        if (n.find(w) != std::string::npos) return true;
    return false;
}

}  // namespace idconform::transport::kafka
