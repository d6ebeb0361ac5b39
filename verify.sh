#!/usr/bin/env bash
# Every test, on each supported Spring Boot line (README, "Supported versions"), then the release build's check.
# CI (.ci/run) runs this. Arguments are passed to each Maven run (for example -Dmaven.repo.local=...).
# Each slow test runs once where a second run on another Logback or JDK would prove nothing new: the model check
# (the protocol, over a heap journal) and the file-system rules run on the build's own Logback and JDK only; the
# crash tests (child JVMs killed with kill -9) run there and on JDK 25, whose journal is mapped through the FFM API.
set -euo pipefail
cd "$(dirname "$0")"

# Spring Boot 4.0 (the build's own): every module and every test, the sample app's AOT processing.
mvn -B verify "$@"

# Spring Boot 3.5: what differs on Spring Boot 3 (see the boot3 profiles in the poms): the sample app (its tests and AOT
# processing), the Spring Boot 3 health module, core's Logback-dependent test, and one smoke each of the Kafka sink (on
# Kafka's 3.9 client) and the OTLP sink (on Spring Boot 3's OpenTelemetry API). The sinks' other tests, the cluster's
# among them, ran above: their code is the same on every line.
mvn -B verify -Pboot3 -pl '!benchmarks' "$@"

# Spring Boot 4.1: every Spring Boot test (*Tests) and core's Logback-dependent test; the engine's own tests (*Test) do
# not depend on Spring Boot and ran above, as did the starter's architecture test (the shape of its classes). Kafka
# 4.2.2, which Spring Boot 4.1.2 manages, has no test jars on Maven Central: the tests' broker takes those of 4.2.1 (the
# kafka-test-jars profile in pom.xml).
mvn -B verify -Dspring-boot4.version=4.1.2 -Dkafka-test-jars.version=4.2.1 -pl '!benchmarks' \
    -Dtest='*Tests,PatternEncodingTest,!LockFreeLogArchitectureTests' \
    -Dsurefire.failIfNoSpecifiedTests=false "$@"

# Logback 1.6 (Spring Boot 4.2 moves to it): core's tests, on Logback 1.6.6 in place of Spring Boot's, less those that
# do not touch Logback (the model checks, the console's and the record engine's tests) or touch it only to start an
# appender (the crash and folder tests, the file-system rules, recovery's bounds, the shipper that follows the log), nor
# the tests of the code's shape (the architecture and the layout CONTRIBUTING.md describes).
# (test-support is built with it: core's tests take their harness from the reactor, not from a local repository.)
mvn -B verify -pl test-support,core -Dlogback.version=1.6.6 \
    -Dtest='!JournalModelCheckTest,!RecordDeliveryModelCheckTest,!CrashRecoveryTest,!SharedLogFileTest,!ConsoleAppenderTest,!LogFolderTest,!FileSystemKindsTest,!RecordSinkEngineTest,!EngineFaultsTest,!RsyslogShippingTest,!CraftedJournalTest,!LandedBytesTest,!PinnedFolderTest,!LiveFileRaceTest,!CoreArchitectureTest,!ContributingLayoutTest' "$@"

# JDK 25, when one is installed (JAVA25_HOME, else Temurin 25 where these machines have it): core's and
# the starter's tests on it, so the build stays free of JDK 25's warnings and its tests pass there too, and the
# sample app's comparison with Spring Boot's own patterns (its bytes, and no allocation on the caller's path). The
# Kafka sink's Spring Boot tests run on JDK 17 only: its journal is the engine's, which the tests here cover on JDK 25.
# The OTLP sink's tests do run here (its HTTP client and hand-written protobuf are the JDK's and its own, and its
# crash test kills a child JVM whose journal is mapped through the FFM API).
# Left to JDK 17 as well: the model checks, the file-system and folder rules, the shipper that follows the log, and the
# tests of the code's shape (architecture, layout): what they test does not change with the JDK (the journal's mapping
# does; the crash and engine tests cover it here).
jdk25="${JAVA25_HOME:-}"
if [ -z "$jdk25" ]; then
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk /usr/lib/jvm/java-25-openjdk-amd64; do
    if [ -x "$candidate/bin/javac" ]; then jdk25="$candidate"; break; fi
  done
fi
if [ -n "$jdk25" ] && [ -x "$jdk25/bin/javac" ]; then
  echo "verify.sh: core and the starter on JDK 25 ($jdk25)"
  # (test-support, kafka and autoconfigure-boot3 are built, kafka's tests left out but RecordEnvelopeTest: every
  # module's tests take the test support, and the starter the Spring Boot 3 health module, from the reactor, not from a
  # local repository)
  JAVA_HOME="$jdk25" mvn -B verify -pl test-support,core,kafka,otlp,autoconfigure,autoconfigure-boot3,starter,sample-app \
      -Dtest='!JournalModelCheckTest,!RecordDeliveryModelCheckTest,!FileSystemKindsTest,!LogFolderTest,!RsyslogShippingTest,!SampleApplicationTests,!DocumentedOutputTests,!LockFreeLogKafkaTests,!Kafka*Test,!LockFreeKafkaAppenderTest,!CoreArchitectureTest,!ContributingLayoutTest,!OtlpArchitectureTest,!LockFreeLogArchitectureTests' \
      -Dsurefire.failIfNoSpecifiedTests=false "$@"
else
  echo "verify.sh: no JDK 25 found (set JAVA25_HOME to one): core and the starter were not tested on JDK 25"
fi

# The release build: the bundle Maven Central would get (nothing is uploaded), and the jars built twice compared.
./.ci/check-release "$@"

# README's examples from outside the tree: its install command, its Maven snippets, application.yml and logback.xml.
./.ci/check-examples "$@"
