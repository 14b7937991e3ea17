// products_server: the thin network front of the example target. Boost.Beast
// HTTP/1.1 (optionally HTTPS) with C++20 coroutines on N threads, keep-alive,
// timeouts on the streams; every request goes to ProductsService::handle.
#include "defects.hpp"
#include "events.hpp"
#include "grpc_front.hpp"
#include "pg_store.hpp"
#include "service.hpp"

#include <CLI/CLI.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/json/parse.hpp>

#include <chrono>
#include <csignal>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
constexpr auto idle_timeout = 30s;   // a keep-alive connection may idle this long
constexpr std::size_t body_limit = 1 << 20;

// Request/response loop over one connection (plain or TLS).
// `delay` > 0: every answer is written that long after its request was read
// (a timer on the connection's strand; the server's threads go on serving
// the other connections), a stand-in for an API whose answers take
// milliseconds (bench/run_latency.sh).
template <class Stream>
asio::awaitable<void> serve(Stream& stream, products::ProductsService& service, std::chrono::milliseconds delay) {
    beast::flat_buffer buffer;
    std::optional<asio::steady_timer> timer;
    if (delay.count() > 0) timer.emplace(stream.get_executor());
    for (;;) {
        http::request_parser<http::string_body> parser;
        parser.body_limit(body_limit);
        beast::get_lowest_layer(stream).expires_after(idle_timeout);
        auto [read_ec, read_n] = co_await http::async_read(stream, buffer, parser, use_tuple);
        if (read_ec) co_return;  // end of stream, timeout or garbage: close
        const auto& req = parser.get();

        products::Request in;
        in.method = req.method_string();
        in.target = req.target();
        in.authorization = req[http::field::authorization];
        in.body = req.body();
        products::Response out = service.handle(in);
        if (timer) {
            timer->expires_after(delay);
            auto [timer_ec] = co_await timer->async_wait(use_tuple);
            (void)timer_ec;
        }

        http::response<http::string_body> res{static_cast<http::status>(out.status), req.version()};
        res.set(http::field::server, "idconform-products");
        if (!out.body.empty())
            res.set(http::field::content_type, out.content_type.empty() ? std::string_view("application/json") : out.content_type);
        if (!out.location.empty()) res.set(http::field::location, out.location);
        if (!out.allow.empty()) res.set(http::field::allow, out.allow);
        if (!out.request_id.empty()) res.set("X-Request-Id", out.request_id);
        if (out.auth_challenge) res.set(http::field::www_authenticate, "Bearer");
        res.body() = std::move(out.body);
        res.keep_alive(req.keep_alive());
        res.prepare_payload();

        auto [write_ec, write_n] = co_await http::async_write(stream, res, use_tuple);
        if (write_ec || !res.keep_alive()) co_return;
    }
}

asio::awaitable<void> plain_session(tcp::socket socket, products::ProductsService& service,
                                    std::chrono::milliseconds delay) {
    beast::tcp_stream stream(std::move(socket));
    co_await serve(stream, service, delay);
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
}

asio::awaitable<void> tls_session(tcp::socket socket, ssl::context& tls, products::ProductsService& service,
                                  std::chrono::milliseconds delay) {
    beast::ssl_stream<beast::tcp_stream> stream(std::move(socket), tls);
    stream.next_layer().expires_after(idle_timeout);
    auto [hs_ec] = co_await stream.async_handshake(ssl::stream_base::server, use_tuple);
    if (hs_ec) co_return;
    co_await serve(stream, service, delay);
    stream.next_layer().expires_after(5s);
    auto [sd_ec] = co_await stream.async_shutdown(use_tuple);
    (void)sd_ec;  // peers often close without close_notify
}

asio::awaitable<void> accept_loop(asio::io_context& ioc, tcp::acceptor& acceptor, ssl::context* tls,
                                  products::ProductsService& service, std::chrono::milliseconds delay) {
    for (;;) {
        // Each connection gets its own strand so its stream and timer never
        // run concurrently, whatever the thread count.
        tcp::socket socket(asio::make_strand(ioc));
        auto [ec] = co_await acceptor.async_accept(socket, use_tuple);
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
        if (ec) continue;  // e.g. EMFILE: keep serving the others
        beast::error_code opt_ec;
        socket.set_option(tcp::no_delay(true), opt_ec);
        const auto executor = socket.get_executor();
        if (tls != nullptr)
            asio::co_spawn(executor, tls_session(std::move(socket), *tls, service, delay), asio::detached);
        else
            asio::co_spawn(executor, plain_session(std::move(socket), service, delay), asio::detached);
    }
}

void print_defect_list(std::ostream& out) {
    for (const auto& d : products::all_defects()) out << d.name << '\t' << d.rule << '\t' << d.description << '\n';
}

}  // namespace

// --seed N: the data a staging API already holds when a run starts: N
// products in N/5 + 1 categories of the principal `seed`, made through the
// API itself (so defects and --store-pg apply). A run never touches them.
bool seed(products::ProductsService& service, unsigned n) {
    const std::string auth = "Bearer seed";
    std::string category;
    for (unsigned i = 0; i < n; ++i) {
        if (i % 5 == 0) {
            const std::string body = "{\"name\":\"seed-category-" + std::to_string(i / 5) + "\"}";
            const products::Response r = service.handle({"POST", "/v1/categories", auth, body});
            boost::system::error_code ec;
            const auto v = boost::json::parse(r.body, ec);
            const auto* id = v.is_object() ? v.as_object().if_contains("id") : nullptr;
            if (r.status != 201 || ec || id == nullptr || !id->is_string()) return false;
            category = std::string(id->as_string());
        }
        const std::string body = "{\"name\":\"seed-product-" + std::to_string(i) +
                                 "\",\"price\":" + std::to_string(100 + i) + ",\"category_id\":\"" + category + "\"}";
        if (service.handle({"POST", "/v1/products", auth, body}).status != 201) return false;
    }
    return true;
}

int main(int argc, char** argv) {
    CLI::App app{"products_server: example target server for idconform (products API, optional defects)"};
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;
    unsigned threads = 2;
    std::vector<std::string> defect_names;
    std::vector<std::string> forbid_list;  // principals whose product list is answered 403
    bool order_viewable_ids = false;
    std::string cert_file;
    std::string key_file;
    bool list_defects = false;
    std::string kafka_brokers;
    bool kafka_mock = false;
    app.add_option("--host", host, "address to bind")->capture_default_str();
    app.add_option("--port", port, "port to bind (0 = pick a free one)")->capture_default_str();
    app.add_option("--threads", threads, "I/O threads")->check(CLI::Range(1u, 256u))->capture_default_str();
    app.add_option("--defect", defect_names, "switch on a deliberate violation (repeatable, see --list-defects)")
        ->delimiter(',');
    std::string export_dir;
    app.add_option("--export-dir", export_dir, "enable POST /v1/exports: write the caller's products there as NDJSON")
        ->check(CLI::ExistingDirectory);
    auto* cert_opt = app.add_option("--tls-cert", cert_file, "PEM certificate chain: serve HTTPS only");
    auto* key_opt = app.add_option("--tls-key", key_file, "PEM private key for --tls-cert");
    cert_opt->needs(key_opt);
    key_opt->needs(cert_opt);
    int grpc_port = -1;
    products::GrpcFrontOptions grpc_options;
    app.add_option("--grpc-port", grpc_port, "also serve gRPC (products.v1.Products) on this port (0 = a free one)")
        ->check(CLI::Range(0, 65535));
    unsigned delay_ms = 0;
    app.add_option("--delay-ms", delay_ms, "every HTTP answer is sent this long after its request (latency benchmarks)")
        ->check(CLI::Range(0u, 60000u));
    app.add_option("--grpc-delay-ms", grpc_options.delay_ms, "every gRPC call waits this long first (deadline tests)");
    app.add_flag("--grpc-legacy", grpc_options.legacy,
                 "also serve products.v1.LegacyProducts, whose ids are bytes (a DATA-ID-002 violation)");
    bool tickets = false;
    app.add_flag("--tickets", tickets,
                 "also serve /v1/tickets and products.v1.Tickets: a resource with integer ids (conformant)");
    app.add_option("--forbid-list", forbid_list,
                   "the product list answers 403 to this principal (repeatable; conformant: a role that may not list)");
    app.add_flag("--order-viewable-ids", order_viewable_ids,
                 "orders also carry a viewable id (TR-XXXXXXX) beside their ULID key (conformant)");
    std::string store_pg;
    app.add_option("--store-pg", store_pg,
                   "also write categories and products to PostgreSQL tables (libpq connection string; made when "
                   "missing), for idconform db");
    unsigned seed_count = 0;
    app.add_option("--seed", seed_count, "start with N products (and N/5+1 categories) of the principal 'seed'")
        ->check(CLI::Range(0u, 100000u));
    app.add_flag("--list-defects", list_defects, "print name<TAB>rule<TAB>description per defect and exit");
    auto* brokers_opt = app.add_option("--kafka-brokers", kafka_brokers,
                                       "publish events to / take commands from this Kafka cluster (bootstrap.servers)");
    app.add_flag("--kafka-mock", kafka_mock, "start librdkafka's mock Kafka cluster in this process and use it")
        ->excludes(brokers_opt);
    CLI11_PARSE(app, argc, argv);

    if (list_defects) {
        print_defect_list(std::cout);
        return 0;
    }

    products::DefectSet defects;
    for (const std::string& name : defect_names) {
        const auto d = products::find_defect(name);
        if (!d) {
            std::cerr << "products_server: unknown defect '" << name << "'";
            if (const auto hint = products::suggest_defect(name); !hint.empty())
                std::cerr << " (did you mean '" << hint << "'?)";
            std::cerr << "\nvalid defects:\n";
            print_defect_list(std::cerr);
            return 2;
        }
        defects.add(*d);
    }

    beast::error_code ec;
    auto address = asio::ip::make_address(host == "localhost" ? "127.0.0.1" : host, ec);
    if (ec) {
        std::cerr << "products_server: bad --host '" << host << "': " << ec.message() << '\n';
        return 1;
    }

    // Declared before the io_context: coroutine frames destroyed with it
    // still refer to these.
    products::ProductsService service(defects);
    if (!export_dir.empty()) service.set_export_dir(export_dir);
    if (!forbid_list.empty()) service.forbid_list({forbid_list.begin(), forbid_list.end()});
    service.set_order_viewable_ids(order_viewable_ids);
    service.set_tickets(tickets);
    if (!store_pg.empty()) {
        std::string why;
        auto storage = products::open_pg_store(store_pg, why);
        if (!storage) {
            std::cerr << "products_server: --store-pg: " << why;
            return 1;
        }
        service.set_storage(std::move(storage));
    }
    if (seed_count > 0 && !seed(service, seed_count)) {
        std::cerr << "products_server: --seed: a create was refused\n";
        return 1;
    }
    grpc_options.tickets = tickets;
    std::optional<ssl::context> tls;
    if (!cert_file.empty()) {
        tls.emplace(ssl::context::tls_server);
        tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
        tls->use_certificate_chain_file(cert_file, ec);
        if (!ec) tls->use_private_key_file(key_file, ssl::context::pem, ec);
        if (ec) {
            std::cerr << "products_server: cannot load TLS certificate/key: " << ec.message() << '\n';
            return 1;
        }
    }

    // Events and commands: only when asked for, so the HTTP-only server
    // needs no Kafka. Declared after the service it feeds, destroyed before it.
    std::unique_ptr<products::Events> events;
    if (kafka_mock || !kafka_brokers.empty()) {
        std::string why;
        events = products::Events::start(service, defects, kafka_mock, kafka_brokers, why);
        if (!events) {
            std::cerr << "products_server: cannot start events: " << why << '\n';
            return 1;
        }
    }

    asio::io_context ioc(static_cast<int>(threads));
    tcp::acceptor acceptor(ioc);
    const tcp::endpoint endpoint(address, port);
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        std::cerr << "products_server: cannot listen on " << host << ':' << port << ": " << ec.message() << '\n';
        return 1;
    }
    const std::uint16_t bound_port = acceptor.local_endpoint().port();

    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](const beast::error_code&, int) {
        beast::error_code ignored;
        acceptor.close(ignored);
        ioc.stop();
    });
    asio::co_spawn(ioc, accept_loop(ioc, acceptor, tls ? &*tls : nullptr, service, std::chrono::milliseconds(delay_ms)),
                   asio::detached);

    const std::string shown_host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    if (!defects.empty()) std::cerr << "products_server: defects on: " << defects.names() << '\n';
    if (events) std::cout << "kafka bootstrap " << events->bootstrap() << std::endl;
    std::cout << "listening on " << (tls ? "https" : "http") << "://" << shown_host << ':' << bound_port
              << std::endl;

    // gRPC shares the store; TLS with the same certificate as HTTPS.
    std::unique_ptr<products::GrpcFront> grpc_front;
    if (grpc_port >= 0) {
        grpc_options.host = shown_host;
        grpc_options.port = static_cast<std::uint16_t>(grpc_port);
        grpc_options.cert_file = cert_file;
        grpc_options.key_file = key_file;
        std::string grpc_error;
        grpc_front = products::start_grpc_front(service, grpc_options, grpc_error);
        if (!grpc_front) {
            std::cerr << "products_server: gRPC: " << grpc_error << '\n';
            return 1;
        }
        std::cout << "grpc listening on " << shown_host << ':' << grpc_front->port() << std::endl;
    }

    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (unsigned i = 1; i < threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : pool) t.join();
    if (grpc_front) grpc_front->shutdown();
    return 0;
}
