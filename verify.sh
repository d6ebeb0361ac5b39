#!/usr/bin/env bash
# Every test, on each supported Spring Boot line (README, "Supported versions"). CI (.ci/run) runs this.
# Arguments are passed to each Maven run (for example -Dmaven.repo.local=...).
set -euo pipefail
cd "$(dirname "$0")"

# Spring Boot 4.0 (the build's own): every module and every test, the sample app's AOT processing.
mvn -B verify "$@"

# Spring Boot 3.5: the sample app (its tests and AOT processing), the Spring Boot 3 health module, and
# core's Logback-dependent test, on Spring Boot 3 (see the boot3 profiles in the poms).
mvn -B verify -Pboot3 -pl '!benchmarks' "$@"

# Spring Boot 4.1: every Spring Boot test (*Tests) and core's Logback-dependent test; the engine's own
# tests (*Test) do not depend on Spring Boot and ran above.
mvn -B verify -Dspring-boot4.version=4.1.2 -pl '!benchmarks' -Dtest='*Tests,PatternEncodingTest' \
    -Dsurefire.failIfNoSpecifiedTests=false "$@"
