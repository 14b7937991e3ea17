// Where each entity lives, by the Location header of the answer that
// created it: for resources a profile reads, updates or deletes at the
// create answer's Location URL (`read: {path: "{location}"}`) instead of a
// path template. One book per suite run (SuiteRun::locations), written when
// a create is answered 2xx (deletion.cpp book_created) and read when an
// http step with `location_of` is built (steps/http.cpp).
#pragma once

#include "suite/scope.hpp"

#include <map>
#include <string>
#include <string_view>

namespace idconform::binding {

class LocationBook {
public:
    // Records the Location a create of `resource` answered for its new `id`:
    // resolved against the create's request URL (relative or absolute). A URL
    // on another origin than `base_url` is never followed: the entity is
    // recorded with that problem instead, and every request to it says so.
    void record(const std::string& resource, const std::string& id, std::string_view location,
                const std::string& request_url, const std::string& base_url);

    // The URL of the entity `id` of `resource`: the Location its create
    // answered; for an id no create answered (a mutated or unknown id, as the
    // packs send), the latest Location of that resource that holds its own id
    // exactly once, with that id replaced by `id` (percent-encoded). An error
    // says why there is none.
    [[nodiscard]] suite::Result<std::string> url_for(const std::string& resource, const std::string& id) const;

    // Whether a create of `resource` answered a usable Location yet.
    [[nodiscard]] bool knows(const std::string& resource) const { return books_.count(resource) != 0; }

private:
    struct Entry {
        std::string url;      // absolute, same origin as base_url
        std::string problem;  // non-empty: not usable, and why
    };
    struct Book {
        std::map<std::string, Entry> by_id;
        // The latest usable Location holding its id exactly once, split around it.
        std::string prefix, suffix;
        bool has_template = false;
        std::string no_template;  // why no Location can be rebuilt around another id
    };
    std::map<std::string, Book> books_;
};

// "scheme://host:port" of an absolute http(s) URL, lower-case, the default
// port written out; "" when it is not one.
[[nodiscard]] std::string origin_of(std::string_view url);

}  // namespace idconform::binding
