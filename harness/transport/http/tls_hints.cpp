// The words of a TLS verify failure (see tls_hints.hpp).
#include "transport/http/tls_hints.hpp"

#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace idconform::transport::http {

namespace {

// Where OpenSSL looks for the system CA store (SSL_CERT_FILE and
// SSL_CERT_DIR override its built-in paths), and whether anything is there.
struct CaStore {
    std::string file, dir;
    bool found = false;
};

CaStore system_ca_store() {
    CaStore s;
    const char* f = std::getenv(X509_get_default_cert_file_env());
    const char* d = std::getenv(X509_get_default_cert_dir_env());
    s.file = f ? f : X509_get_default_cert_file();
    s.dir = d ? d : X509_get_default_cert_dir();
    std::error_code ec;
    if (std::filesystem::is_regular_file(s.file, ec) && std::filesystem::file_size(s.file, ec) > 0) s.found = true;
    // SSL_CERT_DIR may list several directories, separated by ':'.
    for (std::size_t at = 0; !s.found && at <= s.dir.size();) {
        const std::size_t end = std::min(s.dir.find(':', at), s.dir.size());
        const std::string one = s.dir.substr(at, end - at);
        if (!one.empty() && std::filesystem::is_directory(one, ec))
            s.found = std::filesystem::directory_iterator(one, ec) != std::filesystem::directory_iterator();
        at = end + 1;
    }
    return s;
}

// A verify failure that says the issuer is unknown gets a hint: a private
// CA wants --cacert, and a machine without a CA store (a minimal container)
// wants the ca-certificates package.
}  // namespace

std::string unknown_issuer_hint(long v, const TlsOptions& o) {
    if (v != X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY && v != X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT &&
        v != X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT && v != X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN &&
        v != X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE)
        return {};
    if (!o.ca_file.empty()) return " (the CA file given with --cacert, " + o.ca_file + ", did not sign it)";
    const CaStore store = system_ca_store();
    if (!store.found)
        return " (no system CA store was found: nothing in " + store.file + " or " + store.dir +
               "; install the ca-certificates package, or give the CA that signed the server's certificate with "
               "--cacert FILE)";
    return " (not signed by a CA of the system store; for a private CA give its certificate with --cacert FILE)";
}

}  // namespace idconform::transport::http
