// The machine's memory latency by buffer size: a chain of dependent loads through a buffer of
// cache lines visited in a random cyclic order (on huge pages where the kernel gives them), so
// that every load waits for the one before. It explains how the cost of a move grows with the
// board (docs/performance.md): run build/bench/bench_memory.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "tanbo/core/tuning.hpp"

namespace {

constexpr std::size_t kLine = 64;  // bytes per cache line
constexpr std::size_t kWordsPerLine = kLine / sizeof(std::size_t);

// Ns per load of the chase through `state.range(0)` megabytes.
void BM_MemoryLatency(benchmark::State& state) {
  const std::size_t lines = static_cast<std::size_t>(state.range(0)) * (1u << 20) / kLine;
  // The allocator of the position's big buffers: 2 MB aligned, transparent huge pages.
  std::vector<std::size_t, tanbo::BigBufferAllocator<std::size_t>> buffer(lines * kWordsPerLine);
  std::vector<std::size_t> order(lines);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  for (std::size_t i = 0; i < lines; ++i) {
    buffer[order[i] * kWordsPerLine] = order[(i + 1) % lines] * kWordsPerLine;
  }
  std::size_t at = 0;
  for (std::size_t i = 0; i < lines; ++i) at = buffer[at];  // once round: warm what fits
  constexpr std::size_t kLoads = 1u << 20;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kLoads; ++i) at = buffer[at];
    benchmark::DoNotOptimize(at);
  }
  state.counters["ns/load"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kLoads,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_MemoryLatency)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(12)->Arg(16)->Arg(32)->Arg(64);

}  // namespace
