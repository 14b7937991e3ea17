// Loopback tests of the products_server binary: start it on port 0, read the
// listening line, talk to it with curl over HTTP and HTTPS (certificate made
// at test time), stop it with SIGTERM; plus the CLI's exit codes.
#include "defects.hpp"
#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PRODUCTS_SERVER_PATH
#error "PRODUCTS_SERVER_PATH must name the products_server binary"
#endif

namespace {

namespace fs = std::filesystem;

struct RunResult {
    int exit_code = -1;
    std::string output;
};

// Runs a shell command, capturing stdout and stderr.
RunResult run(const std::string& command) {
    RunResult r;
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
    const int status = ::pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// A running server child process; stops it (SIGTERM) when destroyed.
class Server {
public:
    explicit Server(const std::vector<std::string>& args) {
        int fds[2];
        REQUIRE(::pipe(fds) == 0);
        pid_ = ::fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            ::dup2(fds[1], STDOUT_FILENO);
            ::close(fds[0]);
            ::close(fds[1]);
            std::vector<char*> argv;
            std::string path = PRODUCTS_SERVER_PATH;
            argv.push_back(path.data());
            std::vector<std::string> copy = args;
            for (auto& a : copy) argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv(path.c_str(), argv.data());
            ::_exit(127);
        }
        ::close(fds[1]);
        // Blocking read of the first line: the server writes it once bound,
        // or exits (EOF). No clock involved.
        FILE* out = ::fdopen(fds[0], "r");
        REQUIRE(out != nullptr);
        char line[256] = {};
        if (std::fgets(line, sizeof line, out) != nullptr) line_ = line;
        std::fclose(out);
        if (!line_.empty() && line_.back() == '\n') line_.pop_back();
    }
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;
    ~Server() {
        if (pid_ > 0) (void)stop();
    }

    [[nodiscard]] const std::string& line() const { return line_; }
    // "http://127.0.0.1:PORT" from "listening on http://127.0.0.1:PORT".
    [[nodiscard]] std::string base_url() const {
        const std::string prefix = "listening on ";
        return line_.starts_with(prefix) ? line_.substr(prefix.size()) : std::string();
    }
    [[nodiscard]] int port() const {
        const auto colon = line_.rfind(':');
        return colon == std::string::npos ? 0 : std::atoi(line_.c_str() + colon + 1);
    }
    // SIGTERM and wait; the exit code (or -1 when killed by a signal).
    int stop() {
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

private:
    pid_t pid_ = -1;
    std::string line_;
};

const std::string curl = "curl -sS --max-time 30 ";

}  // namespace

TEST_CASE("server prints the listening line, answers over HTTP with keep-alive, stops cleanly") {
    Server server({"--port", "0", "--threads", "3"});
    INFO("line: " << server.line());
    REQUIRE(server.line().starts_with("listening on http://127.0.0.1:"));
    CHECK(server.port() > 0);
    CHECK(server.port() < 65536);
    const std::string url = server.base_url();

    const RunResult health = run(curl + url + "/healthz");
    CHECK(health.exit_code == 0);
    CHECK(health.output == R"({"status":"ok"})");

    // Two requests on one curl command line share one connection.
    const RunResult twice = run(curl + "-v " + url + "/healthz " + url + "/healthz");
    CHECK(twice.exit_code == 0);
    CHECK(twice.output.find("Re-using existing connection") != std::string::npos);

    const RunResult cat = run(curl + "-H 'Authorization: Bearer alice' -d '{\"name\":\"c\"}' " + url + "/v1/categories");
    REQUIRE(cat.exit_code == 0);
    const auto id_pos = cat.output.find("\"id\":\"");
    REQUIRE(id_pos != std::string::npos);
    const std::string cat_id = cat.output.substr(id_pos + 6, 36);
    const RunResult product = run(curl + "-i -H 'Authorization: Bearer alice' -d '{\"name\":\"p\",\"category_id\":\"" +
                                  cat_id + "\"}' " + url + "/v1/products");
    CHECK(product.output.find("HTTP/1.1 201") != std::string::npos);
    CHECK(product.output.find("Location: /v1/products/") != std::string::npos);
    const RunResult unauth = run(curl + "-o /dev/null -w '%{http_code}' " + url + "/v1/products");
    CHECK(unauth.output == "401");

    CHECK(server.stop() == 0);
}

TEST_CASE("server speaks HTTPS with --tls-cert/--tls-key") {
    const fs::path dir = fs::temp_directory_path() / ("products_tls_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string cert = (dir / "cert.pem").string();
    const std::string key = (dir / "key.pem").string();
    const RunResult gen = run("openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
                              "-addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout " +
                              shell_quote(key) + " -out " + shell_quote(cert));
    REQUIRE_MESSAGE(gen.exit_code == 0, gen.output);
    {
        Server server({"--tls-cert", cert, "--tls-key", key});
        INFO("line: " << server.line());
        REQUIRE(server.line().starts_with("listening on https://127.0.0.1:"));
        const std::string url = server.base_url();
        const RunResult health = run(curl + "--cacert " + shell_quote(cert) + " " + url + "/healthz");
        CHECK(health.exit_code == 0);
        CHECK(health.output == R"({"status":"ok"})");
        // Without trusting the certificate the handshake fails: it is real TLS.
        CHECK(run(curl + url + "/healthz").exit_code != 0);
        // Plain HTTP to the HTTPS port is not answered.
        const std::string plain = "http://127.0.0.1:" + std::to_string(server.port()) + "/healthz";
        CHECK(run(curl + plain).exit_code != 0);
        CHECK(server.stop() == 0);
    }
    fs::remove_all(dir);
}

TEST_CASE("defects from the command line: accepted, listed, unknown name exits 2") {
    const std::string bin = shell_quote(PRODUCTS_SERVER_PATH);
    const RunResult unknown = run(bin + " --defect v4_ids");
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.output.find("did you mean 'v4-ids'") != std::string::npos);
    CHECK(unknown.output.find("list-leak\tDATA-ID-004") != std::string::npos);

    const RunResult list = run(bin + " --list-defects");
    CHECK(list.exit_code == 0);
    int lines = 0;
    for (char c : list.output) lines += c == '\n';
    CHECK(lines == static_cast<int>(products::defect_count));  // one line per defect of the registry
    CHECK(list.output.find("v4-ids\tDATA-ID-001\t") != std::string::npos);

    Server server({"--defect", "v4-ids", "--defect", "location-upper"});
    REQUIRE(server.line().starts_with("listening on http://"));
    const std::string url = server.base_url();
    const RunResult cat = run(curl + "-H 'Authorization: Bearer a' -d '{\"name\":\"c\"}' " + url + "/v1/categories");
    const auto id_pos = cat.output.find("\"id\":\"");
    REQUIRE(id_pos != std::string::npos);
    const RunResult product = run(curl + "-i -H 'Authorization: Bearer a' -d '{\"name\":\"p\",\"category_id\":\"" +
                                  cat.output.substr(id_pos + 6, 36) + "\"}' " + url + "/v1/products");
    const auto loc = product.output.find("Location: /v1/products/");
    REQUIRE(loc != std::string::npos);
    const std::string location_id = product.output.substr(loc + 23, 36);
    CHECK(location_id[14] == '4');  // v4 id ...
    CHECK(location_id.find_first_of("ABCDEF") != std::string::npos);  // ... upper-case in Location
    CHECK(server.stop() == 0);
}
