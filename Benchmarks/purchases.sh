#!/usr/bin/env bash
# Verifying App Store signed transactions (JWS, ES256, x5c chain) on one
# core: p50/p99 per check with the chain kept, and afresh. Saves a table
# under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-5000}
swift build -c release --product parla-purchase-bench
mkdir -p Benchmarks/results
result="Benchmarks/results/purchases-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# App Store transaction verification"
  echo
  echo "One core (taskset -c 0), release build, $COUNT transactions signed by a test root, intermediate and leaf."
  echo
  taskset -c 0 .build/release/parla-purchase-bench "$COUNT"
} >"$result"
cat "$result"
echo "saved to $result"
grep -q "met\.$" "$result" && ! grep -q "NOT met" "$result"
