// A request about one entity that can be made again for another id: the
// cleanup's delete and its confirming read, rebuilt when an update re-keys
// the entity. The id sits in one path segment of the URL (between a prefix
// and a suffix), at a pointer of a JSON body (an RPC-style delete, a gRPC
// message), or both; a request that holds it nowhere known is sent as made.
#pragma once

#include "core/exchange.hpp"

#include <boost/json/value.hpp>

#include <optional>
#include <string>

namespace idconform::binding {

struct EntityRequest {
    Request request;                     // as made for the id it was built with
    std::string url_prefix, url_suffix;  // both empty: the URL does not hold the id (or not once)
    std::string body_id_at;              // "": no body holds the id
    boost::json::value body;             // the body around the id (body_id_at set)

    // Whether the request can be made for another id.
    [[nodiscard]] bool rebuilds() const noexcept { return !url_prefix.empty() || !body_id_at.empty(); }
    // The request for `id`: its path segment percent-encoded, in the body a string.
    [[nodiscard]] Request for_id(const std::string& id) const;
};

// Sets `request.body` (and, over HTTP, the JSON content type) from `body` with `id` at
// `body_id_at`; false when the pointer cannot be written.
bool put_id_in_body(EntityRequest& e, const std::string& id);

}  // namespace idconform::binding
