#!/usr/bin/env bash
# Captures the sample app's answers that docs/observability.md and README.md show, into docs/captured/.
# Start the sample app first (mvn -B -q -pl sample-app -am spring-boot:run), then run this script from
# the repository root. BASE defaults to http://localhost:8080.
set -euo pipefail
BASE="${BASE:-http://localhost:8080}"
OUT="$(dirname "$0")/captured"
mkdir -p "$OUT"
date -u +%Y-%m-%dT%H:%M:%SZ > "$OUT/captured-at.txt"
git rev-parse --short HEAD >> "$OUT/captured-at.txt" 2>/dev/null || true
# Two bursts: the first warms the JVM up, the second is the one the docs show.
curl -sf -X POST "$BASE/burst?events=100000&threads=8" > "$OUT/burst-1.json"
curl -sf -X POST "$BASE/burst?events=100000&threads=8" > "$OUT/burst-2.json"
curl -sf "$BASE/actuator/lockfreelog" > "$OUT/endpoint.json"
curl -s "$BASE/actuator/health" > "$OUT/health.json"
curl -sf "$BASE/actuator/metrics/lockfreelog.events.appended" > "$OUT/metric-events-appended.json"
curl -sf "$BASE/actuator/prometheus" | grep '^lockfreelog_\|^# [A-Z]* lockfreelog_' > "$OUT/prometheus.txt"
echo "captured into $OUT"
