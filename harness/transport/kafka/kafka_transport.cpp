// The Kafka transport: one producer (with its own delivery-report polling
// thread) and a pool of assign-only consumers, driven from a small thread
// pool; results are posted back to the caller's executor.
#include "transport/kafka/kafka_transport.hpp"

#include "core/redact.hpp"

#include "transport/kafka/kafka_request.hpp"

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace idconform::transport::kafka {

namespace asio = boost::asio;
namespace json = boost::json;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr int pool_threads = 16;  // consumes wait for messages: one thread each

// What the delivery-report callback hands to the thread waiting for it.
struct Delivery {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
    int partition = -1;
    std::int64_t offset = -1;
    std::int64_t timestamp = -1;
};

void on_delivery(rd_kafka_t*, const rd_kafka_message_t* m, void*) {
    auto* holder = static_cast<std::shared_ptr<Delivery>*>(m->_private);
    if (!holder) return;
    {
        std::lock_guard lock((*holder)->mu);
        (*holder)->err = m->err;
        (*holder)->partition = m->partition;
        (*holder)->offset = m->offset;
        rd_kafka_timestamp_type_t tt;
        (*holder)->timestamp = rd_kafka_message_timestamp(m, &tt);
        (*holder)->done = true;
    }
    (*holder)->cv.notify_all();
    delete holder;
}

void on_log(const rd_kafka_t*, int, const char*, const char*) {
    // librdkafka's own log lines would interleave with the report on stderr;
    // what matters reaches the exchange through error_cb and return codes.
}

TransportError make_error(TransportErrorKind k, std::string m) { return TransportError{k, std::move(m)}; }

bool is_connect_error(rd_kafka_resp_err_t e) {
    return e == RD_KAFKA_RESP_ERR__TRANSPORT || e == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN ||
           e == RD_KAFKA_RESP_ERR__RESOLVE || e == RD_KAFKA_RESP_ERR__SSL || e == RD_KAFKA_RESP_ERR__AUTHENTICATION;
}

class KafkaTransport final : public Transport {
public:
    KafkaTransport(asio::any_io_executor ex, Options opts) : ex_(std::move(ex)), opts_(std::move(opts)) {}
    ~KafkaTransport() override { shutdown(); }

    asio::awaitable<Exchange> exchange(Request request) override {
        Exchange x;
        x.request = request;
        x.sent = Clock::now();
        auto spec = parse_request(request);
        if (!spec || opts_.kafka.brokers.empty() || stopped_) {
            x.error = make_error(TransportErrorKind::other,
                                 !spec ? spec.error()
                                 : stopped_ ? "the Kafka transport is shut down"
                                            : "no Kafka brokers: set target.kafka.brokers in the suite");
            x.received = Clock::now();
            co_return x;
        }
        // Named, not a temporary inside the co_await expression: g++ 12 may
        // destroy such temporaries twice (GCC bug 100611).
        auto work = [this, x = std::move(x), s = std::move(*spec)]() mutable {
            if (s.op == Spec::Op::produce) produce(s, x);
            else consume(s, x);
            x.received = Clock::now();
            return std::move(x);
        };
        auto op = off_thread(std::move(work));
        co_return co_await std::move(op);
    }

    void shutdown() override {
        if (stopped_.exchange(true)) return;
        pool_.join();  // running exchanges finish (each has its deadline)
        stop_poller_ = true;
        if (poller_.joinable()) poller_.join();
        if (producer_) {
            (void)rd_kafka_flush(producer_, 1000);
            rd_kafka_poll(producer_, 0);  // serve the last delivery reports
            rd_kafka_destroy(producer_);
            producer_ = nullptr;
        }
        for (rd_kafka_t* c : idle_consumers_) {
            rd_kafka_consumer_close(c);
            rd_kafka_destroy(c);
        }
        idle_consumers_.clear();
    }

private:
    // Runs `work` (returning an Exchange) on the pool and resumes the caller
    // on its own executor. The outstanding-work executor keeps the caller's
    // io_context running while the pool works.
    template <class Work>
    asio::awaitable<Exchange> off_thread(Work work) {
        return asio::async_initiate<const asio::use_awaitable_t<>, void(Exchange)>(
            [this, work = std::move(work)](auto handler) mutable {
                auto home = asio::get_associated_executor(handler, ex_);
                auto busy = asio::prefer(home, asio::execution::outstanding_work.tracked);
                asio::post(pool_, [work = std::move(work), handler = std::move(handler), busy = std::move(busy)]() mutable {
                    Exchange x = work();
                    asio::post(busy, [handler = std::move(handler), x = std::move(x)]() mutable {
                        std::move(handler)(std::move(x));
                    });
                });
            },
            asio::use_awaitable);
    }

    // Masks the values of secret properties in a text from librdkafka.
    std::string scrub(std::string text) const {
        for (const auto& [k, v] : opts_.kafka.properties) {
            if (!secret_property(k) || v.empty()) continue;
            for (std::size_t p = text.find(v); p != std::string::npos; p = text.find(v, p + redact::mark.size()))
                text.replace(p, v.size(), redact::mark);
        }
        return text;
    }

    static void on_error(rd_kafka_t*, int err, const char* reason, void* opaque) {
        auto* self = static_cast<KafkaTransport*>(opaque);
        std::lock_guard lock(self->error_mu_);
        self->last_error_ = std::string(rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err))) + ": " + reason;
        self->last_error_code_ = static_cast<rd_kafka_resp_err_t>(err);
    }

    std::string last_error() const {
        std::lock_guard lock(error_mu_);
        return last_error_.empty() ? "" : "; last cluster error: " + scrub(last_error_);
    }
    bool cluster_unreachable() const {
        std::lock_guard lock(error_mu_);
        return is_connect_error(last_error_code_);
    }

    // The configuration every client shares: brokers, timeouts, the suite's
    // properties (which may override ours), quiet logging, error callback.
    rd_kafka_conf_t* base_conf(std::string& err) {
        rd_kafka_conf_t* conf = rd_kafka_conf_new();
        char errstr[512];
        auto set = [&](const std::string& k, const std::string& v) {
            if (!err.empty()) return;
            if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
                err = "Kafka property '" + k + "': " + scrub(errstr);
        };
        set("bootstrap.servers", opts_.kafka.brokers);
        set("client.id", "idconform");
        const auto connect_ms = std::max<long long>(1000, opts_.connect_timeout.count());
        set("socket.connection.setup.timeout.ms", std::to_string(connect_ms));
        set("reconnect.backoff.max.ms", "1000");
        for (const auto& [k, v] : opts_.kafka.properties) set(k, v);
        rd_kafka_conf_set_log_cb(conf, on_log);
        rd_kafka_conf_set_error_cb(conf, on_error);
        rd_kafka_conf_set_opaque(conf, this);
        if (!err.empty()) {
            rd_kafka_conf_destroy(conf);
            return nullptr;
        }
        return conf;
    }

    rd_kafka_t* producer(std::string& err) {
        std::lock_guard lock(clients_mu_);
        if (producer_) return producer_;
        rd_kafka_conf_t* conf = base_conf(err);
        if (!conf) return nullptr;
        char errstr[512];
        const auto deadline_ms = std::max<long long>(1, opts_.read_timeout.count());
        if (rd_kafka_conf_set(conf, "message.timeout.ms", std::to_string(deadline_ms).c_str(), errstr, sizeof errstr) !=
                RD_KAFKA_CONF_OK ||
            rd_kafka_conf_set(conf, "linger.ms", "0", errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
            err = scrub(errstr);
            rd_kafka_conf_destroy(conf);
            return nullptr;
        }
        rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
        producer_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);  // owns conf on success
        if (!producer_) {
            rd_kafka_conf_destroy(conf);
            err = "cannot create a Kafka producer: " + scrub(errstr);
            return nullptr;
        }
        poller_ = std::thread([this] {
            while (!stop_poller_) rd_kafka_poll(producer_, 50);
        });
        return producer_;
    }

    rd_kafka_t* take_consumer(std::string& err) {
        {
            std::lock_guard lock(clients_mu_);
            if (!idle_consumers_.empty()) {
                rd_kafka_t* c = idle_consumers_.back();
                idle_consumers_.pop_back();
                return c;
            }
        }
        rd_kafka_conf_t* conf = base_conf(err);
        if (!conf) return nullptr;
        char errstr[512];
        // No group: partitions are assigned directly, nothing is committed.
        for (const auto& [k, v] : std::initializer_list<std::pair<const char*, const char*>>{
                 {"enable.auto.commit", "false"},
                 {"enable.auto.offset.store", "false"},
                 {"enable.partition.eof", "false"},
                 {"fetch.wait.max.ms", "50"},
                 {"group.id", "idconform-assign-only"}}) {
            if (rd_kafka_conf_set(conf, k, v, errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
                err = scrub(errstr);
                rd_kafka_conf_destroy(conf);
                return nullptr;
            }
        }
        rd_kafka_t* c = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr);
        if (!c) {
            rd_kafka_conf_destroy(conf);
            err = "cannot create a Kafka consumer: " + scrub(errstr);
            return nullptr;
        }
        rd_kafka_poll_set_consumer(c);
        return c;
    }

    void give_back(rd_kafka_t* c) {
        (void)rd_kafka_assign(c, nullptr);
        std::lock_guard lock(clients_mu_);
        idle_consumers_.push_back(c);
    }

    TransportErrorKind kind_for(rd_kafka_resp_err_t e) const {
        if (is_connect_error(e) || cluster_unreachable()) return TransportErrorKind::connect;
        if (e == RD_KAFKA_RESP_ERR__TIMED_OUT || e == RD_KAFKA_RESP_ERR__MSG_TIMED_OUT) return TransportErrorKind::timeout;
        return TransportErrorKind::protocol;
    }

    void produce(const Spec& s, Exchange& x) {
        std::string err;
        rd_kafka_t* p = producer(err);
        if (!p) {
            x.error = make_error(TransportErrorKind::other, err);
            return;
        }
        rd_kafka_headers_t* hdrs = rd_kafka_headers_new(s.headers.size());
        for (const auto& h : s.headers)
            rd_kafka_header_add(hdrs, h.name.data(), static_cast<ssize_t>(h.name.size()), h.value.data(),
                                static_cast<ssize_t>(h.value.size()));
        auto delivery = std::make_shared<Delivery>();
        auto* holder = new std::shared_ptr<Delivery>(delivery);
        x.sent = Clock::now();
        const void* key = s.key ? static_cast<const void*>(s.key->data()) : nullptr;
        const std::size_t key_len = s.key ? s.key->size() : 0;
        void* value = s.payload.empty() ? nullptr : const_cast<char*>(s.payload.data());
        const rd_kafka_resp_err_t e = rd_kafka_producev(
            p, RD_KAFKA_V_TOPIC(s.topic.c_str()), RD_KAFKA_V_PARTITION(s.partition.value_or(RD_KAFKA_PARTITION_UA)),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
            RD_KAFKA_V_KEY(key, key_len), RD_KAFKA_V_VALUE(value, s.payload.size()),
            RD_KAFKA_V_HEADERS(hdrs), RD_KAFKA_V_OPAQUE(holder), RD_KAFKA_V_END);
        if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
            rd_kafka_headers_destroy(hdrs);  // not taken over on failure
            delete holder;
            x.error = make_error(TransportErrorKind::other, std::string("produce to ") + s.topic + " refused: " +
                                                                rd_kafka_err2str(e));
            return;
        }
        // The delivery report always comes: at the latest when message.timeout.ms
        // (the read timeout) expires.
        std::unique_lock lock(delivery->mu);
        delivery->cv.wait(lock, [&] { return delivery->done; });
        if (delivery->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            x.error = make_error(kind_for(delivery->err), "message to " + s.topic + " on " + opts_.kafka.brokers + " not delivered within " +
                                                              std::to_string(opts_.read_timeout.count()) + " ms: " +
                                                              rd_kafka_err2str(delivery->err) + last_error());
            return;
        }
        Response r;
        r.status = 200;
        r.reason = "delivered";
        r.headers = {{std::string(topic_header), s.topic},
                     {std::string(partition_header), std::to_string(delivery->partition)},
                     {std::string(offset_header), std::to_string(delivery->offset)},
                     {std::string(timestamp_header), std::to_string(delivery->timestamp)}};
        x.response = std::move(r);
    }

    // Partitions of a topic from the cluster's metadata.
    std::vector<int> partitions_of(rd_kafka_t* c, const std::string& topic, std::optional<TransportError>& error) {
        std::vector<int> out;
        rd_kafka_topic_t* t = rd_kafka_topic_new(c, topic.c_str(), nullptr);
        const auto deadline = SteadyClock::now() + opts_.connect_timeout;
        for (;;) {
            const rd_kafka_metadata_t* md = nullptr;
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
            rd_kafka_resp_err_t e = rd_kafka_metadata(c, 0, t, &md, static_cast<int>(std::max<long long>(left.count(), 1)));
            if (e == RD_KAFKA_RESP_ERR_NO_ERROR && md->topic_cnt == 1) e = md->topics[0].err;
            if (e == RD_KAFKA_RESP_ERR_NO_ERROR)
                for (int i = 0; i < md->topics[0].partition_cnt; ++i) out.push_back(md->topics[0].partitions[i].id);
            if (md) rd_kafka_metadata_destroy(md);
            // A topic being created has no leader for a moment: ask again.
            if (e == RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE && SteadyClock::now() + std::chrono::milliseconds(100) < deadline) {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                continue;
            }
            if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
                const bool unknown = e == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART;
                error = make_error(unknown ? TransportErrorKind::protocol : kind_for(e),
                                   unknown ? "topic '" + topic + "' does not exist on " + opts_.kafka.brokers
                                           : "no metadata for topic '" + topic + "' from " + opts_.kafka.brokers +
                                                 " within " + std::to_string(opts_.connect_timeout.count()) +
                                                 " ms: " + rd_kafka_err2str(e) + last_error());
            }
            break;
        }
        rd_kafka_topic_destroy(t);
        std::sort(out.begin(), out.end());
        return out;
    }

    void consume(const Spec& s, Exchange& x) {
        std::string err;
        rd_kafka_t* c = take_consumer(err);
        if (!c) {
            x.error = make_error(TransportErrorKind::other, err);
            return;
        }
        consume_with(c, s, x);
        give_back(c);
    }

    // The first offset at or after `ts` per partition (-1: none).
    static rd_kafka_resp_err_t offsets_for_times(rd_kafka_t* c, const std::string& topic, const std::vector<int>& parts,
                                                 std::int64_t ts, int timeout_ms, std::map<int, std::int64_t>& out) {
        rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(static_cast<int>(parts.size()));
        for (int p : parts) rd_kafka_topic_partition_list_add(list, topic.c_str(), p)->offset = ts;
        rd_kafka_resp_err_t e = rd_kafka_offsets_for_times(c, list, timeout_ms);
        for (int i = 0; e == RD_KAFKA_RESP_ERR_NO_ERROR && i < list->cnt; ++i) {
            const auto& el = list->elems[i];
            if (el.err != RD_KAFKA_RESP_ERR_NO_ERROR) e = el.err;
            else out[el.partition] = el.offset;
        }
        rd_kafka_topic_partition_list_destroy(list);
        return e;
    }

    void consume_with(rd_kafka_t* c, const Spec& s, Exchange& x) {
        const auto wait = s.timeout.value_or(opts_.read_timeout);
        const int query_ms = static_cast<int>(std::max<long long>(1, opts_.connect_timeout.count()));
        std::optional<TransportError> error;
        std::vector<int> parts = s.partitions.empty() ? partitions_of(c, s.topic, error) : s.partitions;
        if (error) {
            x.error = error;
            return;
        }
        // Where to start in each partition. The end offsets are read before
        // the timestamp lookup, so a message arriving between the two is read.
        std::map<int, std::int64_t> start, low;
        if (s.start.kind == Start::Kind::end || s.start.kind == Start::Kind::timestamp) {
            for (int p : parts) {
                std::int64_t lo = 0, hi = 0;
                rd_kafka_resp_err_t e = rd_kafka_query_watermark_offsets(c, s.topic.c_str(), p, &lo, &hi, query_ms);
                if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
                    x.error = make_error(kind_for(e), "cannot read the end offset of " + s.topic + "/" + std::to_string(p) +
                                                          " from " + opts_.kafka.brokers + ": " + rd_kafka_err2str(e) +
                                                          last_error());
                    return;
                }
                start[p] = hi;
                low[p] = lo;
            }
        }
        if (s.start.kind == Start::Kind::timestamp) {
            // Offsets by time (ListOffsets). A partition with messages that
            // answers "none that new" is asked again for time 0: a broker
            // that cannot look up by time (librdkafka's mock cluster) says
            // "none" to that too, and the partition is read from its start,
            // older messages being skipped by their timestamps below.
            std::map<int, std::int64_t> found;
            rd_kafka_resp_err_t e = offsets_for_times(c, s.topic, parts, s.start.value, query_ms, found);
            std::vector<int> unsure;
            for (int p : parts) {
                if (found[p] >= 0) start[p] = found[p];
                else if (start[p] > low[p]) unsure.push_back(p);  // else: nothing that new yet, the end
            }
            std::map<int, std::int64_t> first;
            if (e == RD_KAFKA_RESP_ERR_NO_ERROR && !unsure.empty())
                e = offsets_for_times(c, s.topic, unsure, 0, query_ms, first);
            for (int p : unsure)
                if (first[p] < 0) start[p] = low[p];
            if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
                x.error = make_error(kind_for(e), "cannot look up offsets by time in " + s.topic + ": " +
                                                      rd_kafka_err2str(e) + last_error());
                return;
            }
        }
        rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(static_cast<int>(parts.size()));
        for (int p : parts) {
            auto* el = rd_kafka_topic_partition_list_add(assignment, s.topic.c_str(), p);
            switch (s.start.kind) {
                case Start::Kind::beginning: el->offset = RD_KAFKA_OFFSET_BEGINNING; break;
                case Start::Kind::offset: el->offset = s.start.value; break;
                default: el->offset = start[p]; break;
            }
        }
        rd_kafka_resp_err_t e = rd_kafka_assign(c, assignment);
        rd_kafka_topic_partition_list_destroy(assignment);
        if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
            x.error = make_error(TransportErrorKind::other, std::string("cannot assign partitions: ") + rd_kafka_err2str(e));
            return;
        }

        const auto deadline = SteadyClock::now() + wait;
        std::size_t read = 0;
        std::deque<json::object> recent;  // the last few messages read, for the report of a miss
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
            if (left.count() <= 0) break;
            rd_kafka_message_t* m = rd_kafka_consumer_poll(c, static_cast<int>(std::min<long long>(left.count(), 100)));
            if (!m) continue;
            if (m->err) {
                const rd_kafka_resp_err_t me = m->err;
                rd_kafka_message_destroy(m);
                if (me == RD_KAFKA_RESP_ERR__PARTITION_EOF) continue;
                if (me == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || me == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
                    me == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE || me == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED) {
                    x.error = make_error(kind_for(me), "consuming " + s.topic + ": " + rd_kafka_err2str(me) + last_error());
                    return;
                }
                continue;  // transient: librdkafka retries by itself
            }
            ++read;
            Message msg;
            if (m->key) msg.key = std::string(static_cast<const char*>(m->key), m->key_len);
            if (m->payload) msg.payload.assign(static_cast<const char*>(m->payload), m->len);
            rd_kafka_headers_t* hdrs = nullptr;
            if (rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR && hdrs) {
                const char* name;
                const void* value;
                size_t size;
                for (size_t i = 0; rd_kafka_header_get_all(hdrs, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
                    msg.headers.push_back({name, value ? std::string(static_cast<const char*>(value), size) : std::string()});
            }
            rd_kafka_timestamp_type_t tt;
            const std::int64_t ts = rd_kafka_message_timestamp(m, &tt);
            const int partition = m->partition;
            const std::int64_t offset = m->offset;
            rd_kafka_message_destroy(m);
            if (s.start.kind == Start::Kind::timestamp && ts >= 0 && ts < s.start.value) {
                --read;  // older than the start time: not part of what was asked for
                continue;
            }
            if (!matches(s.match, msg)) {
                json::object seen{{"partition", partition}, {"offset", offset}, {"timestamp", ts}};
                seen["key"] = msg.key ? json::value(*msg.key) : json::value(nullptr);
                recent.push_back(std::move(seen));
                if (recent.size() > 5) recent.pop_front();
                continue;
            }
            Response r;
            r.status = 200;
            r.reason = "matched";
            r.headers = {{std::string(topic_header), s.topic},
                         {std::string(partition_header), std::to_string(partition)},
                         {std::string(offset_header), std::to_string(offset)},
                         {std::string(timestamp_header), std::to_string(ts)}};
            if (msg.key) r.headers.push_back({std::string(key_header), *msg.key});
            for (auto& h : msg.headers) r.headers.push_back(std::move(h));
            r.body_bytes = msg.payload.size();
            if (msg.payload.size() > opts_.body_cap) {
                msg.payload.resize(opts_.body_cap);
                r.body_truncated = true;
            }
            r.body = std::move(msg.payload);
            x.response = std::move(r);
            return;
        }
        // No match before the deadline: an answer (the runner decides what it
        // means), not a transport error. The body says what was seen instead.
        json::array last;
        for (auto& o : recent) last.push_back(std::move(o));
        json::object body{{"topic", s.topic},
                          {"matching", describe(s.match)},
                          {"waited_ms", wait.count()},
                          {"read", read},
                          {"last_read", std::move(last)}};
        Response r;
        r.status = 404;
        r.reason = "no matching message";
        r.headers = {{std::string(topic_header), s.topic}};
        r.body = json::serialize(body);
        r.body_bytes = r.body.size();
        x.response = std::move(r);
    }

    asio::any_io_executor ex_;
    const Options opts_;
    asio::thread_pool pool_{pool_threads};
    std::atomic<bool> stopped_{false};
    std::atomic<bool> stop_poller_{false};
    std::mutex clients_mu_;
    rd_kafka_t* producer_ = nullptr;
    std::thread poller_;
    std::vector<rd_kafka_t*> idle_consumers_;
    mutable std::mutex error_mu_;
    std::string last_error_;
    rd_kafka_resp_err_t last_error_code_ = RD_KAFKA_RESP_ERR_NO_ERROR;
};

}  // namespace

std::unique_ptr<Transport> make_kafka_transport(asio::any_io_executor ex, const Options& opts) {
    return std::make_unique<KafkaTransport>(std::move(ex), opts);
}

}  // namespace idconform::transport::kafka
