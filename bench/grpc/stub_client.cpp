// The baseline of bench/run_grpc.sh: a plain loop of generated-stub
// GetProduct calls against the example server, C threads sharing one channel
// (as idconform shares one per target), each call checked for OK and the id.
// Usage: grpc_stub_client ADDRESS PRODUCT_ID CALLS CONCURRENCY
// Prints "calls=N seconds=S per_second=R failures=F".
#include "products/v1/products.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: grpc_stub_client ADDRESS PRODUCT_ID CALLS CONCURRENCY\n");
        return 2;
    }
    const std::string address = argv[1], id = argv[2];
    const long calls = std::atol(argv[3]);
    const int concurrency = std::max(1, std::atoi(argv[4]));
    auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
    auto stub = products::v1::Products::NewStub(channel);
    std::atomic<long> next{0}, failures{0};
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < concurrency; ++t)
        threads.emplace_back([&] {
            while (next.fetch_add(1) < calls) {
                grpc::ClientContext ctx;
                ctx.AddMetadata("authorization", "Bearer alice");
                ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
                products::v1::GetProductRequest req;
                req.set_id(id);
                products::v1::Product resp;
                const grpc::Status st = stub->GetProduct(&ctx, req, &resp);
                if (!st.ok() || resp.id() != id) failures.fetch_add(1);
            }
        });
    for (auto& th : threads) th.join();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("calls=%ld seconds=%.3f per_second=%.0f failures=%ld\n", calls, s, calls / s, failures.load());
    return failures.load() == 0 ? 0 : 1;
}
