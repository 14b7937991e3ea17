// JSON <-> dynamic protobuf messages. See codec.hpp.
#include "transport/grpc/codec.hpp"

#include "core/diagnostic.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <google/protobuf/util/json_util.h>

namespace idconform::transport::grpcdyn {

namespace pb = google::protobuf;
namespace json = boost::json;

namespace {

// Well-known types have JSON forms of their own (Timestamp is a string,
// Struct any object): their members are not fields to check.
bool special_json(const pb::Descriptor& d) {
    return d.file()->name().rfind("google/protobuf/", 0) == 0;
}

const pb::FieldDescriptor* field_for(const pb::Descriptor& d, const std::string& key) {
    if (const auto* f = d.FindFieldByName(key)) return f;
    for (int i = 0; i < d.field_count(); ++i)
        if (d.field(i)->json_name() == key) return d.field(i);
    return nullptr;
}

bool check_members(const json::value& v, const pb::Descriptor& d, const std::string& where, std::string& error) {
    if (special_json(d)) return true;
    if (!v.is_object()) return true;  // protobuf names the wrong type itself
    for (const auto& kv : v.as_object()) {
        const std::string key(kv.key());
        const pb::FieldDescriptor* f = field_for(d, key);
        if (!f) {
            std::vector<std::string> names;
            for (int i = 0; i < d.field_count(); ++i) names.push_back(d.field(i)->name());
            error = "unknown field '" + key + "' in " + d.full_name() + (where.empty() ? "" : " (at " + where + ")");
            if (const std::string best = did_you_mean(key, names); !best.empty())
                error += " (did you mean '" + best + "'?)";
            error += names.empty() ? "; it has no fields" : "; it has ";
            for (std::size_t i = 0; i < names.size(); ++i) error += (i ? ", " : "") + names[i];
            return false;
        }
        if (f->type() != pb::FieldDescriptor::TYPE_MESSAGE || f->is_map()) continue;
        const std::string here = where + "/" + key;
        if (f->is_repeated() && kv.value().is_array()) {
            std::size_t i = 0;
            for (const auto& item : kv.value().as_array())
                if (!check_members(item, *f->message_type(), here + "/" + std::to_string(i++), error)) return false;
        } else if (!check_members(kv.value(), *f->message_type(), here, error)) {
            return false;
        }
    }
    return true;
}

}  // namespace

bool json_to_message(const std::string& text, pb::Message& msg, std::string& error) {
    const std::string& in = text.empty() ? std::string("{}") : text;
    boost::system::error_code ec;
    json::value v = json::parse(in, ec);
    if (ec) {
        error = "the message is not JSON: " + ec.message();
        return false;
    }
    const pb::Descriptor& d = *msg.GetDescriptor();
    if (!v.is_object() && !special_json(d)) {
        error = "the message for " + d.full_name() + " must be a JSON object";
        return false;
    }
    if (!check_members(v, d, "", error)) return false;
    pb::util::JsonParseOptions opts;
    opts.ignore_unknown_fields = false;
    const auto st = pb::util::JsonStringToMessage(in, &msg, opts);
    if (!st.ok()) {
        error = "the message does not fit " + d.full_name() + ": " + std::string(st.message());
        return false;
    }
    return true;
}

bool message_to_json(const pb::Message& msg, std::string& out, std::string& error) {
    pb::util::JsonPrintOptions opts;
    opts.preserve_proto_field_names = true;
    opts.always_print_primitive_fields = false;  // absent stays absent
    out.clear();
    const auto st = pb::util::MessageToJsonString(msg, &out, opts);
    if (!st.ok()) {
        error = "cannot print the " + msg.GetDescriptor()->full_name() + " answer as JSON: " + std::string(st.message());
        return false;
    }
    return true;
}

}  // namespace idconform::transport::grpcdyn
