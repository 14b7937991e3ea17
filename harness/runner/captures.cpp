// Captures from an answer into the scope.
#include "runner/captures.hpp"

#include "runner/checks.hpp"
#include "runner/scope.hpp"

namespace idconform::runner {

namespace json = boost::json;

Result<bool> apply_captures(const std::vector<suite::Capture>& caps, const Exchange& x, Scope& scope) {
    if (!x.response) return Result<bool>(boost::system::in_place_error, "no response to capture from");
    BodyJson body(*x.response);
    return apply_captures(caps, x, scope, body);
}

Result<bool> apply_captures(const std::vector<suite::Capture>& caps, const Exchange& x, Scope& scope, BodyJson& body) {
    if (!x.response) return Result<bool>(boost::system::in_place_error, "no response to capture from");
    const Response& resp = *x.response;
    for (const auto& c : caps) {
        switch (c.from) {
            case suite::Capture::From::status: scope.set(c.var, resp.status); break;
            case suite::Capture::From::header:
            case suite::Capture::From::header_id: {
                const std::string* h = resp.header(c.path);
                if (!h)
                    return Result<bool>(boost::system::in_place_error,
                                        "capture '" + c.var + "': header " + c.path + " is absent (" + c.pos.str() + ")");
                if (c.from == suite::Capture::From::header) {
                    scope.set(c.var, json::value(*h));
                    break;
                }
                // The id a header names: its last path segment, read exactly as
                // the id check reads it (checks.hpp last_path_segment).
                const std::string id = last_path_segment(*h);
                if (id.empty())
                    return Result<bool>(boost::system::in_place_error, "capture '" + c.var + "': header " + c.path +
                                                                           " names no id ('" + *h + "', " + c.pos.str() + ")");
                scope.set(c.var, json::value(id));
                break;
            }
            case suite::Capture::From::json: {
                const json::value* root = body.get();
                if (!root)
                    return Result<bool>(boost::system::in_place_error,
                                        "capture '" + c.var + "': " +
                                            (resp.body.empty() ? "the answer has no body" : "body is not JSON") + " (" +
                                            c.pos.str() + ")");
                boost::system::error_code ec;
                // The pointer as the answer was searched (a pack writes
                // "${res.id_at}"; the message names "/id").
                const std::string at = resolve_pointer(c.path, scope);
                const json::value* v = root->find_pointer(at, ec);
                if (!v)
                    return Result<bool>(boost::system::in_place_error, "capture '" + c.var + "': nothing at " +
                                                                           (at.empty() ? "(root)" : at) + " (" +
                                                                           c.pos.str() + ")");
                scope.set(c.var, *v);
                break;
            }
        }
    }
    return true;
}

}  // namespace idconform::runner
