// The Location book (see locations.hpp).
#include "binding/locations.hpp"

#include "suite/scope.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <cctype>

namespace idconform::binding {

namespace urls = boost::urls;

std::string origin_of(std::string_view url) {
    auto u = urls::parse_uri(url);
    if (!u || !u->has_authority()) return {};
    std::string scheme(u->scheme());
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
    if (scheme != "http" && scheme != "https") return {};
    std::string host(u->encoded_host());
    std::transform(host.begin(), host.end(), host.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string port(u->port());
    if (port.empty()) port = scheme == "https" ? "443" : "80";
    return scheme + "://" + host + ":" + port;
}

void LocationBook::record(const std::string& resource, const std::string& id, std::string_view location,
                          const std::string& request_url, const std::string& base_url) {
    Book& book = books_[resource];
    Entry e;
    const std::string written(location);
    auto base = urls::parse_uri(request_url);
    auto ref = urls::parse_uri_reference(location);
    urls::url resolved;
    if (!base || !ref) {
        e.problem = "the create answer's Location '" + written + "' is not a URL";
    } else if (auto r = urls::resolve(*base, *ref, resolved); !r) {
        e.problem = "the create answer's Location '" + written + "' cannot be resolved against " + request_url;
    } else {
        resolved.remove_fragment();
        e.url = std::string(resolved.buffer());
        const std::string there = origin_of(e.url), here = origin_of(base_url);
        if (there.empty() || there != here) {
            // Credentials and test traffic stay with the target the profile names.
            e.problem = "the create answer's Location '" + written + "' is on another origin (" +
                        (there.empty() ? e.url : there) + ") than base_url (" + here + "): not followed";
            e.url.clear();
            if (!book.has_template) book.no_template = e.problem;
        }
    }
    if (e.problem.empty()) {
        // Where the id sits in the URL, so that another id (a mutation) can be
        // put in its place: exactly one occurrence after the origin.
        const std::string enc = suite::percent_encode(id, false);
        const std::size_t from = origin_of(e.url).empty() ? 0 : e.url.find('/', e.url.find("//") + 2);
        const std::size_t at = from == std::string::npos ? std::string::npos : e.url.find(enc, from);
        if (!enc.empty() && at != std::string::npos && e.url.find(enc, at + enc.size()) == std::string::npos) {
            book.prefix = e.url.substr(0, at);
            book.suffix = e.url.substr(at + enc.size());
            book.has_template = true;
            book.no_template.clear();
        } else if (!book.has_template) {
            book.no_template = "the create answer's Location '" + written + "' does not hold the id '" + id +
                               "' exactly once, so no other id can be addressed there";
        }
    }
    book.by_id[id] = std::move(e);
}

suite::Result<std::string> LocationBook::url_for(const std::string& resource, const std::string& id) const {
    using R = suite::Result<std::string>;
    const auto b = books_.find(resource);
    if (b == books_.end())
        return R(boost::system::in_place_error, "no create of '" + resource +
                                                    "' answered a Location yet: the profile reads '" + resource +
                                                    "' at the create answer's Location URL (path: \"{location}\")");
    const Book& book = b->second;
    if (const auto e = book.by_id.find(id); e != book.by_id.end()) {
        if (!e->second.problem.empty()) return R(boost::system::in_place_error, e->second.problem);
        return R(boost::system::in_place_value, e->second.url);
    }
    if (!book.has_template)
        return R(
            boost::system::in_place_error,
            "id '" + id + "' was not created by this run and " +
                (book.no_template.empty() ? std::string("no create answered a usable Location") : book.no_template));
    return R(boost::system::in_place_value, book.prefix + suite::percent_encode(id, false) + book.suffix);
}

}  // namespace idconform::binding
