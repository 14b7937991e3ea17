// Where the descriptors of a gRPC method come from, and what they say:
// .proto files (Importer over a DiskSourceTree, /usr/include added for the
// well-known types) or server reflection (reflection.hpp fills a
// ReflectionSchema); method lookup with errors that name what exists; the
// DATA-ID-002 contract findings of a method's messages. No network here.
#pragma once

#include "core/exchange.hpp"

#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/descriptor_database.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::transport::grpcdyn {

// "products.v1.Products/GetProduct" (also with a leading '/') split into
// service and method; false for anything else (core/grpc_method.hpp).
[[nodiscard]] bool split_method(std::string_view full, std::string& service, std::string& method);

// Schema loaded from .proto files. Every problem of every file is collected.
class FileSchema {
public:
    // nullptr with `error` set ("file:line:col: message", one per line) when
    // a file is missing or does not compile.
    [[nodiscard]] static std::unique_ptr<FileSchema> load(const std::vector<std::string>& protos,
                                                          const std::vector<std::string>& import_paths,
                                                          std::string& error);
    [[nodiscard]] const google::protobuf::DescriptorPool* pool() const { return importer_.pool(); }
    [[nodiscard]] const std::vector<std::string>& services() const { return services_; }
    // The file on disk a virtual name ("products/v1/legacy.proto") was read
    // from; the name itself for one never read.
    [[nodiscard]] std::string disk_path(const std::string& name) const {
        const auto it = tree_.opened.find(name);
        return it == tree_.opened.end() ? name : it->second;
    }

private:
    class Errors : public google::protobuf::compiler::MultiFileErrorCollector {
    public:
        void AddError(const std::string& file, int line, int column, const std::string& message) override;
        void AddWarning(const std::string&, int, int, const std::string&) override {}
        std::string text;
    };
    // The files protobuf's Importer reads (the named .proto files and their
    // imports), each through the input guard (core/input_file.hpp): a
    // regular file, not under /proc, /sys or /dev after resolving symlinks,
    // up to 16 MiB, UTF-8 text.
    class GuardedTree : public google::protobuf::compiler::SourceTree {
    public:
        // Folders searched in order for a virtual name (protobuf's
        // DiskSourceTree opens the file to look it up: a FIFO would block).
        std::vector<std::string> roots;
        google::protobuf::io::ZeroCopyInputStream* Open(const std::string& filename) override;
        std::map<std::string, std::string> opened;  // virtual name -> the file read
        std::string GetLastErrorMessage() override { return last_error_; }

    private:
        std::string last_error_;
    };
    FileSchema();
    GuardedTree tree_;
    Errors errors_;
    google::protobuf::compiler::Importer importer_;
    std::vector<std::string> services_;
};

// Schema gathered from a server's reflection service: every file the server
// sends is kept (it sends them in no fixed order), the well-known types come
// from the compiled-in pool when the server leaves them out.
class ReflectionSchema {
public:
    ReflectionSchema();
    // Adds a serialized FileDescriptorProto; false if it does not parse.
    bool add_file(const std::string& serialized);
    [[nodiscard]] bool has_file(const std::string& name) const { return files_.count(name) != 0; }
    // Dependencies named by the files so far that are neither here nor compiled in.
    [[nodiscard]] std::vector<std::string> missing_dependencies() const;
    [[nodiscard]] const google::protobuf::DescriptorPool* pool() const { return &pool_; }
    std::set<std::string> fetched_services;  // services asked for already
    std::vector<std::string> listed_services;  // from list_services, once asked
    std::string method_path;                   // the reflection method that answered (v1 or v1alpha)

private:
    google::protobuf::SimpleDescriptorDatabase db_;
    google::protobuf::DescriptorPoolDatabase generated_db_;
    google::protobuf::MergedDescriptorDatabase merged_;
    google::protobuf::DescriptorPool pool_;
    std::set<std::string> files_;
    std::set<std::string> dependencies_;
};

// The method in `pool`, or nullptr with `error` naming what exists:
// "no method 'GetProdct' in products.v1.Products; it has CreateProduct, ...
// (did you mean 'GetProduct'?)". A missing service is reported with
// `services` (the names the schema knows) listed.
[[nodiscard]] const google::protobuf::MethodDescriptor* find_method(const google::protobuf::DescriptorPool& pool,
                                                                    const std::string& service,
                                                                    const std::string& method,
                                                                    const std::vector<std::string>& services,
                                                                    std::string& error);
[[nodiscard]] std::string no_service_error(const std::string& service, const std::vector<std::string>& services,
                                           std::string_view where);

// DATA-ID-002 from the schema alone: every field of the request or response
// message (nested messages included) that carries an id otherwise than as a
// string. An id field is named "id", "*_id", "*Id", "uuid", "*_uuid" or
// "*Uuid"; a string (or google.protobuf.StringValue) is fine, bytes or any
// number is a finding. Each names its field and the schema file declaring
// it, with the field's position when the descriptors keep source locations
// (.proto files do, reflection does not); `files`, when the descriptors
// come from it, turns the file's virtual name into the path read.
[[nodiscard]] std::vector<ContractFinding> id_type_findings(const google::protobuf::MethodDescriptor& method,
                                                            const FileSchema* files = nullptr);
[[nodiscard]] bool id_named(std::string_view field_name);

}  // namespace idconform::transport::grpcdyn
