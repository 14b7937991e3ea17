// Events out, commands in, rejects to the dead-letter topic (see events.hpp).
#include "events.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>
#include <vector>

namespace products {
namespace ids = idconform::ids;
namespace json = boost::json;

namespace {

std::string upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 32);
    return s;
}

json::value ref_value(const Ref& r, const DefectSet& d, bool nil_placeholder) {
    switch (r.kind) {
    case Ref::Kind::id: return json::value(d.has(Defect::event_upper_case) ? upper(ids::format(r.id)) : ids::format(r.id));
    case Ref::Kind::raw: return r.raw;
    case Ref::Kind::none: break;
    }
    if (nil_placeholder && d.has(Defect::event_nil_for_absent_ref)) return json::value(ids::format(ids::nil_uuid));
    return nullptr;
}

}  // namespace

Event render_event(std::string_view change, const Product& p, const DefectSet& d) {
    std::string id = ids::format(p.id);
    Event e;
    e.key = d.has(Defect::event_upper_case) ? upper(id) : id;
    if (d.has(Defect::event_id_mismatch)) id.back() = id.back() == '0' ? '1' : '0';  // still a v7, another one
    if (d.has(Defect::event_upper_case)) id = upper(id);
    json::object o;
    o["type"] = "product." + std::string(change);
    o["id"] = id;
    o["name"] = p.name;
    o["category_id"] = ref_value(p.category, d, false);
    o["parent_id"] = ref_value(p.parent, d, true);
    o["updated_at"] = p.updated_at;
    e.payload = json::serialize(o);
    return e;
}

CommandDecision decide_command(std::string_view payload, const DefectSet& d) {
    CommandDecision out;
    auto reject = [&out](std::string why) {
        out.action = CommandDecision::Action::reject;
        out.reason = std::move(why);
        return out;
    };
    boost::system::error_code ec;
    const json::value v = json::parse(payload, ec);
    if (ec) return reject("malformed JSON: " + ec.message());
    if (!v.is_object()) return reject("a command is a JSON object");
    const json::object& o = v.as_object();
    const json::value* type = o.if_contains("type");
    if (!type || !type->is_string() || (type->as_string() != "delete_product" && type->as_string() != "rename_product"))
        return reject("unknown command type (delete_product or rename_product)");
    const json::value* id = o.if_contains("id");
    if (!id) return reject("id is missing");
    if (id->is_null()) return reject("id is null");
    if (!id->is_string()) return reject("id is not a string");
    const std::string_view text = id->as_string();
    if (text.empty()) return reject("id is empty");
    if (ids::is_canonical_version(text, 7)) {
        out.id = *ids::parse_canonical(text);
    } else {
        const ids::Recognition r = ids::recognize_uuid(text);
        // The defect: a lenient parser reads other spellings of a v7 and
        // normalises them silently.
        if (d.has(Defect::command_accepts_bad_id) && r.value && r.version == 7 && r.variant == ids::Variant::rfc9562 &&
            r.special == ids::Special::none)
            out.id = *r.value;
        else
            return reject("id is not a canonical lower-case UUIDv7: " + r.describe());
    }
    if (type->as_string() == "delete_product") {
        out.action = CommandDecision::Action::delete_product;
        return out;
    }
    const json::value* name = o.if_contains("name");
    if (!name || !name->is_string() || name->as_string().empty()) return reject("name must be a non-empty string");
    out.action = CommandDecision::Action::rename_product;
    out.name = name->as_string();
    return out;
}

namespace {

void quiet_log(const rd_kafka_t*, int, const char*, const char*) {}

class KafkaEvents final : public Events {
public:
    KafkaEvents(ProductsService& service, const DefectSet& defects) : service_(service), defects_(defects) {}

    ~KafkaEvents() override {
        service_.set_change_sink(nullptr);
        stop_ = true;
        if (consumer_thread_.joinable()) consumer_thread_.join();
        if (producer_) rd_kafka_flush(producer_, 2000);
        stop_poller_ = true;
        if (poller_.joinable()) poller_.join();
        if (consumer_) {
            rd_kafka_consumer_close(consumer_);
            rd_kafka_destroy(consumer_);
        }
        if (producer_) rd_kafka_destroy(producer_);
        if (mock_) rd_kafka_mock_cluster_destroy(mock_);
        if (mock_owner_) rd_kafka_destroy(mock_owner_);
    }

    const std::string& bootstrap() const override { return bootstrap_; }

    bool start(bool mock, const std::string& brokers, std::string& error) {
        char errstr[512];
        if (mock) {
            mock_owner_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf({}, error), errstr, sizeof errstr);
            if (!mock_owner_) return fail(error, std::string("cannot start the mock cluster: ") + errstr);
            mock_ = rd_kafka_mock_cluster_new(mock_owner_, 1);
            if (!mock_) return fail(error, "cannot start the mock cluster");
            bootstrap_ = rd_kafka_mock_cluster_bootstraps(mock_);
            for (std::string_view t : {events_topic, commands_topic, dlq_topic})
                if (rd_kafka_mock_topic_create(mock_, std::string(t).c_str(), 4, 1) != RD_KAFKA_RESP_ERR_NO_ERROR)
                    return fail(error, "cannot create topic " + std::string(t) + " on the mock cluster");
        } else {
            bootstrap_ = brokers;
        }
        rd_kafka_conf_t* pc = conf({{"linger.ms", "1"}}, error);
        if (!pc) return false;
        producer_ = rd_kafka_new(RD_KAFKA_PRODUCER, pc, errstr, sizeof errstr);
        if (!producer_) return fail(error, std::string("cannot create the producer: ") + errstr);
        poller_ = std::thread([this] {
            while (!stop_poller_) rd_kafka_poll(producer_, 50);
        });
        // Connected before the server says it is ready: the first event does
        // not wait for a connection and topic metadata.
        const rd_kafka_metadata_t* md = nullptr;
        rd_kafka_topic_t* et = rd_kafka_topic_new(producer_, std::string(events_topic).c_str(), nullptr);
        const rd_kafka_resp_err_t me = rd_kafka_metadata(producer_, 0, et, &md, 5000);
        if (md) rd_kafka_metadata_destroy(md);
        rd_kafka_topic_destroy(et);
        if (me != RD_KAFKA_RESP_ERR_NO_ERROR)
            return fail(error, "no answer from " + bootstrap_ + ": " + rd_kafka_err2str(me));
        rd_kafka_conf_t* cc = conf({{"group.id", "products-server"}, {"enable.auto.commit", "false"},
                                    {"fetch.wait.max.ms", "50"}}, error);
        if (!cc) return false;
        consumer_ = rd_kafka_new(RD_KAFKA_CONSUMER, cc, errstr, sizeof errstr);
        if (!consumer_) return fail(error, std::string("cannot create the consumer: ") + errstr);
        rd_kafka_poll_set_consumer(consumer_);
        if (!assign_commands(error)) return false;
        service_.set_change_sink([this](std::string_view change, const Product& p) { publish(change, p); });
        consumer_thread_ = std::thread([this] { consume_loop(); });
        return true;
    }

private:
    static bool fail(std::string& error, std::string why) {
        error = std::move(why);
        return false;
    }

    rd_kafka_conf_t* conf(std::initializer_list<std::pair<const char*, const char*>> extra, std::string& error) const {
        rd_kafka_conf_t* c = rd_kafka_conf_new();
        char errstr[512];
        std::vector<std::pair<std::string, std::string>> all;
        if (!bootstrap_.empty()) all.emplace_back("bootstrap.servers", bootstrap_);
        for (const auto& [k, v] : extra) all.emplace_back(k, v);
        for (const auto& [k, v] : all)
            if (rd_kafka_conf_set(c, k.c_str(), v.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
                error = std::string("Kafka property ") + k + ": " + errstr;
                rd_kafka_conf_destroy(c);
                return nullptr;
            }
        rd_kafka_conf_set_log_cb(c, quiet_log);
        return c;
    }

    // Every partition of the command topic from its current end: commands
    // sent after start-up are applied, older ones are not replayed.
    bool assign_commands(std::string& error) {
        const std::string topic(commands_topic);
        rd_kafka_topic_t* t = rd_kafka_topic_new(consumer_, topic.c_str(), nullptr);
        std::vector<int> parts;
        rd_kafka_resp_err_t e = RD_KAFKA_RESP_ERR_NO_ERROR;
        for (int attempt = 0; attempt < 50 && parts.empty(); ++attempt) {
            const rd_kafka_metadata_t* md = nullptr;
            e = rd_kafka_metadata(consumer_, 0, t, &md, 5000);
            if (e == RD_KAFKA_RESP_ERR_NO_ERROR && md->topic_cnt == 1) e = md->topics[0].err;
            if (e == RD_KAFKA_RESP_ERR_NO_ERROR)
                for (int i = 0; i < md->topics[0].partition_cnt; ++i) parts.push_back(md->topics[0].partitions[i].id);
            if (md) rd_kafka_metadata_destroy(md);
            if (e != RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        rd_kafka_topic_destroy(t);
        if (parts.empty())
            return fail(error, "no partitions for topic " + topic + " on " + bootstrap_ + ": " + rd_kafka_err2str(e));
        rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(static_cast<int>(parts.size()));
        for (int p : parts) {
            std::int64_t lo = 0, hi = 0;
            e = rd_kafka_query_watermark_offsets(consumer_, topic.c_str(), p, &lo, &hi, 5000);
            if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
                rd_kafka_topic_partition_list_destroy(list);
                return fail(error, "cannot read the end of " + topic + ": " + rd_kafka_err2str(e));
            }
            rd_kafka_topic_partition_list_add(list, topic.c_str(), p)->offset = hi;
        }
        e = rd_kafka_assign(consumer_, list);
        rd_kafka_topic_partition_list_destroy(list);
        if (e != RD_KAFKA_RESP_ERR_NO_ERROR) return fail(error, std::string("cannot assign: ") + rd_kafka_err2str(e));
        return true;
    }

    void produce(std::string_view topic, const std::string* key, const std::string& payload, rd_kafka_headers_t* hdrs) {
        const std::string t(topic);
        const void* k = key ? static_cast<const void*>(key->data()) : nullptr;
        const std::size_t klen = key ? key->size() : 0;
        void* value = const_cast<char*>(payload.data());
        rd_kafka_resp_err_t e =
            hdrs ? rd_kafka_producev(producer_, RD_KAFKA_V_TOPIC(t.c_str()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                     RD_KAFKA_V_KEY(k, klen), RD_KAFKA_V_VALUE(value, payload.size()),
                                     RD_KAFKA_V_HEADERS(hdrs), RD_KAFKA_V_END)
                 : rd_kafka_producev(producer_, RD_KAFKA_V_TOPIC(t.c_str()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                     RD_KAFKA_V_KEY(k, klen), RD_KAFKA_V_VALUE(value, payload.size()), RD_KAFKA_V_END);
        if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
            if (hdrs) rd_kafka_headers_destroy(hdrs);
            std::cerr << "products_server: cannot publish to " << t << ": " << rd_kafka_err2str(e) << '\n';
        }
    }

    void publish(std::string_view change, const Product& p) {
        const Event e = render_event(change, p, defects_);
        produce(events_topic, &e.key, e.payload, nullptr);
    }

    void consume_loop() {
        while (!stop_) {
            rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer_, 100);
            if (!m) continue;
            if (!m->err) handle(*m);
            rd_kafka_message_destroy(m);
        }
    }

    void handle(const rd_kafka_message_t& m) {
        const std::string payload = m.payload ? std::string(static_cast<const char*>(m.payload), m.len) : std::string();
        CommandDecision d = decide_command(payload, defects_);
        bool applied = false;
        if (d.action == CommandDecision::Action::delete_product) applied = service_.command_delete(d.id);
        else if (d.action == CommandDecision::Action::rename_product) applied = service_.command_rename(d.id, d.name);
        if (applied) return;
        if (d.action != CommandDecision::Action::reject) d.reason = "no product with id " + ids::format(d.id);
        // Dead letter: the original key and headers, the reason, the command as text.
        rd_kafka_headers_t* hdrs = nullptr;
        rd_kafka_headers_t* in = nullptr;
        if (rd_kafka_message_headers(&m, &in) == RD_KAFKA_RESP_ERR_NO_ERROR && in) hdrs = rd_kafka_headers_copy(in);
        if (!hdrs) hdrs = rd_kafka_headers_new(1);
        rd_kafka_header_add(hdrs, "dlq-reason", -1, d.reason.data(), static_cast<ssize_t>(d.reason.size()));
        json::object o{{"reason", d.reason},
                       {"topic", std::string(commands_topic)},
                       {"partition", m.partition},
                       {"offset", m.offset},
                       {"command", payload}};
        std::optional<std::string> key;
        if (m.key) key.emplace(static_cast<const char*>(m.key), m.key_len);
        produce(dlq_topic, key ? &*key : nullptr, json::serialize(o), hdrs);
    }

    ProductsService& service_;
    const DefectSet defects_;
    std::string bootstrap_;
    rd_kafka_t* mock_owner_ = nullptr;
    rd_kafka_mock_cluster_t* mock_ = nullptr;
    rd_kafka_t* producer_ = nullptr;
    rd_kafka_t* consumer_ = nullptr;
    std::thread poller_, consumer_thread_;
    std::atomic<bool> stop_{false}, stop_poller_{false};
};

}  // namespace

std::unique_ptr<Events> Events::start(ProductsService& service, const DefectSet& defects, bool mock,
                                      const std::string& brokers, std::string& error) {
    auto e = std::make_unique<KafkaEvents>(service, defects);
    if (!e->start(mock, brokers, error)) return nullptr;
    return e;
}

}  // namespace products
