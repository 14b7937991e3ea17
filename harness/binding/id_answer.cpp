// Where a resource's answers name the entity's own id (id_answer.hpp).
#include "binding/id_answer.hpp"

namespace idconform::binding {

bool IdAnswer::in_header(suite::Operation op) const noexcept {
    if (header.empty()) return false;
    return op == suite::Operation::create || pointer.empty();
}

bool IdAnswer::elsewhere(suite::Operation op) const noexcept {
    const bool creates = op == suite::Operation::create || op == suite::Operation::put;
    return in_header(op) || (creates && !create_pointer.empty());
}

void move_own_id(const IdAnswer& id, suite::Step& st, const std::string& at) {
    const bool by_header = !id.header.empty();
    for (auto& e : st.expect.ids)
        if (e.at && *e.at == at) {
            if (by_header) {
                e.at.reset();
                e.header = id.header;
            } else {
                e.at = id.create_pointer;
            }
        }
    for (auto& c : st.captures)
        if (c.from == suite::Capture::From::json && c.path == at) {
            if (by_header) c.from = suite::Capture::From::header_id;
            c.path = by_header ? id.header : id.create_pointer;
        }
}

void adapt_expectations(const IdAnswer& id, suite::Operation op, suite::Step& st) {
    if (id.elsewhere(op)) move_own_id(id, st);
    // Answers that carry the id only in a header carry no entity: a read
    // that finds it may well answer 204 (a registry's upload status).
    if (id.pointer.empty() && op == suite::Operation::read && st.expect.status && !st.expect.status->negate &&
        st.expect.status->exact == std::vector<int>{200} && st.expect.status->classes.empty()) {
        st.expect.status->exact.clear();
        st.expect.status->classes = {2};
    }
}

}  // namespace idconform::binding
