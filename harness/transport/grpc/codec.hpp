// JSON <-> protobuf for dynamic messages. Requests are checked member by
// member against the descriptor first, so an unknown field is named with the
// fields that exist; the conversion itself is protobuf's JSON mapping.
// Answers print with the proto field names and only the fields present on the
// wire: an unset `optional` field (an absent reference) is left out, never
// printed as "" (which would look like a DATA-ID-007 dummy).
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/util/type_resolver.h>

#include "transport/transport.hpp"

#include <boost/json/object.hpp>

#include <memory>
#include <optional>
#include <string>

namespace idconform::transport::grpcdyn {

// Converts straight between JSON text and the wire bytes of messages of one
// descriptor pool (no message objects in between; the type resolver is made
// once per pool, which is most of the cost of a conversion otherwise).
class Codec {
public:
    explicit Codec(const google::protobuf::DescriptorPool* pool);
    // The request JSON (empty = {}) as wire bytes; errors as json_to_message.
    [[nodiscard]] bool json_to_binary(const google::protobuf::Descriptor& type, const std::string& json,
                                      std::string& out, std::string& error) const;
    // An answer's wire bytes as JSON (proto field names, present fields only).
    [[nodiscard]] bool binary_to_json(const google::protobuf::Descriptor& type, const std::string& wire,
                                      std::string& out, std::string& error) const;
    // The member of the request JSON whose value its field's type cannot
    // hold (a UUID string in an int64 field, a number in a string field),
    // or holds only as another value (the text "017" in an int64 field
    // arrives as 17: the request would not say what was meant), nested
    // messages included; nullopt when every member arrives as written, or
    // when what is wrong is something else (no JSON, an unknown field).
    [[nodiscard]] std::optional<Unsendable> misfit(const google::protobuf::Descriptor& type,
                                                   const std::string& json) const;

private:
    // `converts`: the whole message converted, so only values that arrive
    // changed are looked for.
    [[nodiscard]] std::optional<Unsendable> misfit_in(const google::protobuf::Descriptor& d,
                                                      const boost::json::object& o, const std::string& where,
                                                      bool converts) const;
    // What an integer field holds when the one member `one` is sent, as
    // decimal text; nullopt when it does not convert.
    [[nodiscard]] std::optional<std::string> arrives_as(const google::protobuf::Descriptor& d,
                                                        const google::protobuf::FieldDescriptor& f,
                                                        const boost::json::object& one) const;
    std::unique_ptr<google::protobuf::util::TypeResolver> resolver_;
};

// Parses `json` into `msg` (a fresh message of the method's input type).
// Empty text means `{}`. On failure returns false with `error` saying where:
// "unknown field 'nmae' in products.v1.CreateProductRequest (did you mean
// 'name'?); it has id, name, ...", or protobuf's own message for a wrong type.
[[nodiscard]] bool json_to_message(const std::string& json, google::protobuf::Message& msg, std::string& error);

// The message as JSON text (proto field names, present fields only).
[[nodiscard]] bool message_to_json(const google::protobuf::Message& msg, std::string& out, std::string& error);

}  // namespace idconform::transport::grpcdyn
