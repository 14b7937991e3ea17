// JSON <-> dynamic protobuf messages. See codec.hpp.
#include "transport/grpc/codec.hpp"

#include "core/diagnostic.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/type_resolver_util.h>

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

std::string type_url(const pb::Descriptor& d) { return "type.googleapis.com/" + d.full_name(); }

// The precise reason a request JSON does not fit: checked only after the
// fast conversion failed, so the common case parses the text once.
std::string explain(const std::string& in, const pb::Descriptor& d, std::string_view protobuf_message) {
    boost::system::error_code ec;
    json::value v = json::parse(in, ec);
    if (ec) return "the message is not JSON: " + ec.message();
    if (!v.is_object() && !special_json(d)) return "the message for " + d.full_name() + " must be a JSON object";
    std::string error;
    if (!check_members(v, d, "", error)) return error;
    return "the message does not fit " + d.full_name() + ": " + std::string(protobuf_message);
}

}  // namespace

Codec::Codec(const pb::DescriptorPool* pool)
    : resolver_(pb::util::NewTypeResolverForDescriptorPool("type.googleapis.com", pool)) {}

bool Codec::json_to_binary(const pb::Descriptor& type, const std::string& text, std::string& out,
                           std::string& error) const {
    const std::string& in = text.empty() ? std::string("{}") : text;
    pb::util::JsonParseOptions opts;
    opts.ignore_unknown_fields = false;
    out.clear();
    const auto st = pb::util::JsonToBinaryString(resolver_.get(), type_url(type), in, &out, opts);
    if (st.ok()) {
        // The converter takes a top-level array or scalar for a message; the
        // contract says a request message is an object.
        const auto first = in.find_first_not_of(" \t\r\n");
        if (special_json(type) || (first != std::string::npos && in[first] == '{')) return true;
    }
    error = explain(in, type, std::string(st.message()));
    return false;
}

bool Codec::binary_to_json(const pb::Descriptor& type, const std::string& wire, std::string& out,
                           std::string& error) const {
    pb::util::JsonPrintOptions opts;
    opts.preserve_proto_field_names = true;
    opts.always_print_primitive_fields = false;  // absent stays absent
    out.clear();
    const auto st = pb::util::BinaryToJsonString(resolver_.get(), type_url(type), wire, &out, opts);
    if (st.ok()) return true;
    error = "the answer (" + std::to_string(wire.size()) + " bytes) does not parse as " + type.full_name() + ": " +
            std::string(st.message());
    return false;
}

std::optional<Unsendable> Codec::misfit(const pb::Descriptor& type, const std::string& text) const {
    if (text.empty()) return std::nullopt;
    std::string wire, error;
    const bool converts = json_to_binary(type, text, wire, error);
    boost::system::error_code ec;
    const json::value v = json::parse(text, ec);
    if (ec || !v.is_object()) return std::nullopt;
    return misfit_in(type, v.as_object(), "", converts);
}

namespace {

bool integer_field(const pb::FieldDescriptor& f) {
    switch (f.cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_INT32:
        case pb::FieldDescriptor::CPPTYPE_INT64:
        case pb::FieldDescriptor::CPPTYPE_UINT32:
        case pb::FieldDescriptor::CPPTYPE_UINT64: return true;
        default: return false;
    }
}

// A member value as the decimal text it stands for: a string as written, an
// integer in its shortest form; nullopt for anything else.
std::optional<std::string> written_as(const json::value& v) {
    if (v.is_string()) return std::string(v.as_string());
    if (v.is_int64()) return std::to_string(v.as_int64());
    if (v.is_uint64()) return std::to_string(v.as_uint64());
    if (v.is_double()) return json::serialize(v);  // 17.0: never the text an integer field gives back
    return std::nullopt;
}

}  // namespace

std::optional<std::string> Codec::arrives_as(const pb::Descriptor& d, const pb::FieldDescriptor& f,
                                             const json::object& one) const {
    std::string wire, back;
    pb::util::JsonParseOptions in;
    if (!pb::util::JsonToBinaryString(resolver_.get(), type_url(d), json::serialize(one), &wire, in).ok())
        return std::nullopt;
    pb::util::JsonPrintOptions out;
    out.preserve_proto_field_names = true;
    out.always_print_primitive_fields = true;  // a 0 is printed, not left out
    if (!pb::util::BinaryToJsonString(resolver_.get(), type_url(d), wire, &back, out).ok()) return std::nullopt;
    boost::system::error_code ec;
    const json::value v = json::parse(back, ec);
    const json::value* got = ec || !v.is_object() ? nullptr : v.as_object().if_contains(f.name());
    if (!got) return std::nullopt;
    if (got->is_array()) {  // a repeated field: its one element
        if (got->as_array().size() != 1) return std::nullopt;
        got = &got->as_array()[0];
    }
    return written_as(*got);
}

// Each scalar member is converted alone, as the one member of its message:
// the first that protobuf refuses is the one that does not fit. When the
// whole message converts, an integer member whose value comes back as
// another number's text is the one that does not arrive as written.
std::optional<Unsendable> Codec::misfit_in(const pb::Descriptor& d, const json::object& o, const std::string& where,
                                           bool converts) const {
    if (special_json(d)) return std::nullopt;
    for (const auto& kv : o) {
        const std::string key(kv.key());
        const pb::FieldDescriptor* f = field_for(d, key);
        if (!f) return std::nullopt;  // an unknown field: the call names it
        const std::string here = where + "/" + key;
        if (f->type() == pb::FieldDescriptor::TYPE_MESSAGE && !f->is_map() && !special_json(*f->message_type())) {
            if (kv.value().is_object()) {
                if (auto m = misfit_in(*f->message_type(), kv.value().as_object(), here, converts)) return m;
            } else if (f->is_repeated() && kv.value().is_array()) {
                std::size_t i = 0;
                for (const auto& item : kv.value().as_array()) {
                    if (item.is_object())
                        if (auto m = misfit_in(*f->message_type(), item.as_object(), here + "/" + std::to_string(i),
                                               converts))
                            return m;
                    ++i;
                }
            }
            continue;
        }
        if (converts) {
            if (!integer_field(*f) || f->is_map()) continue;
            auto check = [&](const json::value& value, const std::string& at) -> std::optional<Unsendable> {
                const auto written = written_as(value);
                if (!written) return std::nullopt;
                json::object one;
                one[kv.key()] = f->is_repeated() ? json::value(json::array{value}) : value;
                const auto arrived = arrives_as(d, *f, one);
                if (!arrived || *arrived == *written) return std::nullopt;
                return Unsendable{at, "field " + f->name() + " of " + d.full_name() + " is " +
                                          (f->is_repeated() ? "repeated " : "") + std::string(f->type_name()) + ": '" +
                                          *written + "' would arrive as " + *arrived +
                                          ", so the request would not carry what it means"};
            };
            if (f->is_repeated() && kv.value().is_array()) {
                std::size_t i = 0;
                for (const auto& item : kv.value().as_array())
                    if (auto m = check(item, here + "/" + std::to_string(i++))) return m;
            } else if (auto m = check(kv.value(), here)) {
                return m;
            }
            continue;
        }
        json::object one;
        one[kv.key()] = kv.value();
        std::string wire;
        pb::util::JsonParseOptions opts;
        const auto st = pb::util::JsonToBinaryString(resolver_.get(), type_url(d), json::serialize(one), &wire, opts);
        if (st.ok()) continue;
        const std::string type_name = f->type() == pb::FieldDescriptor::TYPE_ENUM
                                          ? "enum " + f->enum_type()->full_name()
                                      : f->type() == pb::FieldDescriptor::TYPE_MESSAGE ? f->message_type()->full_name()
                                                                                       : std::string(f->type_name());
        return Unsendable{here, "field " + f->name() + " of " + d.full_name() + " is " +
                                    (f->is_repeated() && !f->is_map() ? "repeated " : "") + type_name + " (" +
                                    std::string(st.message()) + ")"};
    }
    return std::nullopt;
}

bool json_to_message(const std::string& text, pb::Message& msg, std::string& error) {
    const Codec codec(msg.GetDescriptor()->file()->pool());
    std::string wire;
    if (!codec.json_to_binary(*msg.GetDescriptor(), text, wire, error)) return false;
    if (!msg.ParseFromString(wire)) {
        error = "the message does not fit " + msg.GetDescriptor()->full_name();
        return false;
    }
    return true;
}

bool message_to_json(const pb::Message& msg, std::string& out, std::string& error) {
    const Codec codec(msg.GetDescriptor()->file()->pool());
    return codec.binary_to_json(*msg.GetDescriptor(), msg.SerializeAsString(), out, error);
}

}  // namespace idconform::transport::grpcdyn
