// Descriptor sources (files, reflection), method lookup and the DATA-ID-002
// schema findings. See schema.hpp.
#include "transport/grpc/schema.hpp"

#include "ids/ids.hpp"

#include "core/diagnostic.hpp"
#include "core/input_file.hpp"

#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "core/grpc_method.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>

namespace idconform::transport::grpcdyn {

namespace pb = google::protobuf;
namespace fs = std::filesystem;

bool split_method(std::string_view full, std::string& service, std::string& method) {
    const auto p = grpc_method::parse(full);
    if (!p) return false;
    service = std::string(p->service);
    method = std::string(p->method);
    return true;
}

// ------------------------------------------------------------ FileSchema

void FileSchema::Errors::AddError(const std::string& file, int line, int column, const std::string& message) {
    // The importer's line and column are 0-based; -1 means "the whole file".
    text += file;
    if (line >= 0) text += ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1);
    text += ": " + message + "\n";
}

FileSchema::FileSchema() : importer_(&tree_, &errors_) {}

namespace {

// A stream over a text it owns (the Importer deletes the stream when done).
class OwnedStream : public pb::io::ZeroCopyInputStream {
public:
    explicit OwnedStream(std::string text)
        : text_(std::move(text)), array_(text_.data(), static_cast<int>(text_.size())) {}
    bool Next(const void** data, int* size) override { return array_.Next(data, size); }
    void BackUp(int count) override { array_.BackUp(count); }
    bool Skip(int count) override { return array_.Skip(count); }
    int64_t ByteCount() const override { return array_.ByteCount(); }

private:
    std::string text_;
    pb::io::ArrayInputStream array_;
};

}  // namespace

pb::io::ZeroCopyInputStream* FileSchema::GuardedTree::Open(const std::string& filename) {
    std::string disk_file;
    const fs::path name(filename);
    bool plain = !filename.empty() && !name.is_absolute();
    for (const auto& part : name) plain = plain && part != ".." && part != ".";
    for (const auto& r : roots) {
        std::error_code ec;
        if (plain && fs::exists(fs::symlink_status(fs::path(r) / name, ec))) {
            disk_file = (fs::path(r) / name).string();
            break;
        }
    }
    if (disk_file.empty()) {
        last_error_ = "File not found.";
        return nullptr;
    }
    input::Policy p;
    p.what = ".proto file";
    p.named_by = input::NamedBy::file;
    p.max_bytes = std::size_t{16} << 20;
    p.format = ".proto";
    p.expected = "a .proto file";
    auto in = input::read_input(disk_file, p);
    if (!in.text) {
        last_error_ = (in.error.pos.line > 0 ? in.error.pos.str() + ": " : std::string()) + in.error.title;
        return nullptr;
    }
    opened[filename] = disk_file;
    return new OwnedStream(std::move(*in.text));
}

std::unique_ptr<FileSchema> FileSchema::load(const std::vector<std::string>& protos,
                                             const std::vector<std::string>& import_paths, std::string& error) {
    std::unique_ptr<FileSchema> s(new FileSchema());
    std::vector<std::string> roots;
    for (const auto& p : import_paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            error = "import path '" + p + "' is not a directory";
            return nullptr;
        }
        roots.push_back(fs::weakly_canonical(p, ec).string());
    }
    // A file outside every import path: its own directory becomes one.
    std::vector<std::string> virtual_names;
    for (const auto& p : protos) {
        std::error_code ec;
        if (const auto opened = input::open_input(p, {.what = ".proto file", .pipes = false}); opened.error) {
            error = "cannot read .proto file '" + p + "': " +
                    (opened.reason == std::strerror(ENOENT) ? std::string("no such file") : opened.reason);
            return nullptr;
        }
        const std::string abs = fs::weakly_canonical(p, ec).string();
        std::string name;
        for (const auto& r : roots) {
            const std::string prefix = r + "/";
            if (abs.rfind(prefix, 0) == 0) {
                name = abs.substr(prefix.size());
                break;
            }
        }
        if (name.empty()) {
            const fs::path ap(abs);
            roots.push_back(ap.parent_path().string());
            name = ap.filename().string();
        }
        virtual_names.push_back(name);
    }
    for (const auto& r : roots) s->tree_.roots.push_back(r);
    s->tree_.roots.push_back("/usr/include");  // google/protobuf/*.proto
    for (const auto& name : virtual_names) {
        const pb::FileDescriptor* f = s->importer_.Import(name);
        if (!f) continue;
        for (int i = 0; i < f->service_count(); ++i) s->services_.push_back(f->service(i)->full_name());
    }
    if (!s->errors_.text.empty()) {
        error = s->errors_.text;
        while (!error.empty() && error.back() == '\n') error.pop_back();
        return nullptr;
    }
    return s;
}

// ------------------------------------------------------ ReflectionSchema

ReflectionSchema::ReflectionSchema()
    : generated_db_(*pb::DescriptorPool::generated_pool()), merged_(&db_, &generated_db_), pool_(&merged_) {}

bool ReflectionSchema::add_file(const std::string& serialized) {
    pb::FileDescriptorProto fd;
    if (!fd.ParseFromString(serialized)) return false;
    if (!files_.insert(fd.name()).second) return true;  // sent again: keep the first
    for (const auto& d : fd.dependency()) dependencies_.insert(d);
    return db_.Add(fd);
}

std::vector<std::string> ReflectionSchema::missing_dependencies() const {
    std::vector<std::string> out;
    for (const auto& d : dependencies_) {
        if (files_.count(d)) continue;
        if (pb::DescriptorPool::generated_pool()->FindFileByName(d)) continue;
        out.push_back(d);
    }
    return out;
}

// ----------------------------------------------------------- lookups

std::string no_service_error(const std::string& service, const std::vector<std::string>& services,
                             std::string_view where) {
    std::string e = "no service '" + service + "' in " + std::string(where);
    if (services.empty()) return e + "; it has no services";
    e += "; it has ";
    for (std::size_t i = 0; i < services.size(); ++i) e += (i ? ", " : "") + services[i];
    const std::string best = did_you_mean(service, services);
    if (!best.empty()) e += " (did you mean '" + best + "'?)";
    return e;
}

const pb::MethodDescriptor* find_method(const pb::DescriptorPool& pool, const std::string& service,
                                        const std::string& method, const std::vector<std::string>& services,
                                        std::string& error) {
    const pb::ServiceDescriptor* sd = pool.FindServiceByName(service);
    if (!sd) {
        error = no_service_error(service, services, "the schema");
        return nullptr;
    }
    if (const pb::MethodDescriptor* md = sd->FindMethodByName(method)) {
        if (md->client_streaming() || md->server_streaming()) {
            error = "method '" + method + "' of " + service + " is streaming; only unary calls are supported";
            return nullptr;
        }
        return md;
    }
    std::vector<std::string> names;
    for (int i = 0; i < sd->method_count(); ++i) names.push_back(sd->method(i)->name());
    error = "no method '" + method + "' in " + service + "; it has ";
    for (std::size_t i = 0; i < names.size(); ++i) error += (i ? ", " : "") + names[i];
    if (names.empty()) error += "no methods";
    const std::string best = did_you_mean(method, names);
    if (!best.empty()) error += " (did you mean '" + best + "'?)";
    return nullptr;
}

// ------------------------------------------------------------ findings

bool id_named(std::string_view n) { return ids::data_id_named(n); }

namespace {

const char* type_text(const pb::FieldDescriptor& f) {
    return f.type() == pb::FieldDescriptor::TYPE_MESSAGE ? "message" : f.type_name();
}

void scan(const pb::Descriptor& d, std::string_view role, std::set<const pb::Descriptor*>& seen,
          const FileSchema* files, std::vector<ContractFinding>& out) {
    if (!seen.insert(&d).second) return;
    for (int i = 0; i < d.field_count(); ++i) {
        const pb::FieldDescriptor& f = *d.field(i);
        if (id_named(f.name())) {
            const bool is_string = f.type() == pb::FieldDescriptor::TYPE_STRING ||
                                   (f.type() == pb::FieldDescriptor::TYPE_MESSAGE &&
                                    f.message_type()->full_name() == "google.protobuf.StringValue");
            if (!is_string) {
                std::string actual = std::string(type_text(f));
                if (f.type() == pb::FieldDescriptor::TYPE_MESSAGE) actual += " " + f.message_type()->full_name();
                if (f.type() == pb::FieldDescriptor::TYPE_BYTES) actual += " (an id as raw bytes)";
                ContractFinding c;
                c.rule = "DATA-ID-002";
                c.what = "id field type in the " + std::string(role) + " schema: " + f.full_name();
                c.expected = "string (the canonical text form)";
                c.actual = actual;
                c.field = f.full_name();
                c.schema = f.file()->name();  // the name the schema knows it by: the same on every machine
                if (pb::SourceLocation loc; f.GetSourceLocation(&loc))
                    c.pos = SourcePos{files ? files->disk_path(c.schema) : c.schema, loc.start_line + 1,
                                      loc.start_column + 1};
                out.push_back(std::move(c));
                continue;
            }
        }
        if (f.type() == pb::FieldDescriptor::TYPE_MESSAGE) scan(*f.message_type(), role, seen, files, out);
    }
}

}  // namespace

std::vector<ContractFinding> id_type_findings(const pb::MethodDescriptor& method, const FileSchema* files) {
    std::vector<ContractFinding> out;
    std::set<const pb::Descriptor*> seen;
    scan(*method.input_type(), "request", seen, files, out);
    seen.clear();
    scan(*method.output_type(), "response", seen, files, out);
    return out;
}

}  // namespace idconform::transport::grpcdyn
