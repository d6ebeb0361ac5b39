package io.github.lockfreelog.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import io.github.lockfreelog.testsupport.TestLogback;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.MDC;

/**
 * The appender against a real broker: every event in the topic exactly once, in each thread's order; with
 * transactions off too, when nothing fails.
 */
class LockFreeKafkaAppenderTest {

    static final int THREADS = 4;

    @TempDir
    Path dir;

    /**
     * Transactions off promises at least once; with no failure, no crash, each batch goes out once, so the check is
     * the same: each event once, in each thread's order (and no position topic, no transaction).
     */
    @ParameterizedTest(name = "transactional={0}")
    @ValueSource(booleans = {true, false})
    void fourThreadsEveryEventExactlyOnceInEachThreadsOrder(boolean transactional) throws Exception {
        String topic = KafkaTestBroker.newTopic("burst");
        LoggerContext context = TestLogback.newContext();
        LockFreeKafkaAppender appender = appender(context, topic, dir.resolve("burst.journal"));
        if (!transactional) {
            transactionsOff(appender);
        }
        appender.setKey("thread");
        appender.setHeaders("level,logger");
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        int events = 5_000;
        List<String> all = Events.logFromThreads(logger, THREADS, events);
        appender.stop();

        List<ConsumerRecord<byte[], byte[]>> records = CommittedReader.toHighWatermark(KafkaTestBroker.bootstrap(), topic);
        List<String> values = records.stream().map(CommittedReader::value).toList();
        assertThat(values).hasSize(THREADS * events);
        Events.assertExactlyOnceInOrder(values, all);
        for (ConsumerRecord<byte[], byte[]> record : records) {
            String value = CommittedReader.value(record);
            assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("caller-" + Events.thread(value));
            assertThat(new String(record.headers().lastHeader("level").value(), StandardCharsets.UTF_8)).isEqualTo("INFO");
            assertThat(new String(record.headers().lastHeader("logger").value(), StandardCharsets.UTF_8))
                    .isEqualTo("test");
        }
        assertThat(appender.getStatistics().eventsWritten()).isEqualTo(THREADS * events);
        assertThat(appender.getStatistics().dropped()).isZero();
        assertThat(appender.getKafkaCounters().eventsDelivered()).isEqualTo(THREADS * events);
        if (transactional) {
            assertThat(appender.getKafkaCounters().transactionsCommitted()).isPositive();
        } else {
            assertThat(appender.getKafkaCounters().transactionsCommitted()).isZero();
            assertThat(appender.getKafkaCounters().transactionsAborted()).isZero();
            assertThat(KafkaTestBroker.topics()).as("no position topic").doesNotContain(topic + ".positions")
                    .contains(topic);
        }
        assertThat(TestLogback.warnings(context)).as("no WARN or ERROR").isEmpty();
    }

    /**
     * Transactions off with a position topic and a transactional id prefix set: one WARN names both as unused, and
     * the appender runs (at least once) without them: the position topic is not created.
     */
    @Test
    void transactionsOffWithTransactionalSettingsWarnsThatTheyAreUnused() throws Exception {
        String topic = KafkaTestBroker.newTopic("off");
        LoggerContext context = TestLogback.newContext();
        LockFreeKafkaAppender appender = appender(context, topic, dir.resolve("off.journal"));
        appender.setTransactional(false);
        appender.setPositionTopic(topic + ".mine");
        appender.setTransactionalIdPrefix("mine");
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        logger(context, appender).info("one");
        appender.stop();

        assertThat(CommittedReader.toHighWatermark(KafkaTestBroker.bootstrap(), topic)).extracting(CommittedReader::value).containsExactly("one");
        List<String> warnings = TestLogback.warnings(context);
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("positionTopic=" + topic + ".mine").contains("transactionalIdPrefix=mine")
                .contains("not used").contains("transactional=false").contains("\"KAFKA\"");
        assertThat(KafkaTestBroker.topics()).doesNotContain(topic + ".mine", topic + ".positions");
    }

    /**
     * An event larger than the topic's max.message.bytes is left out, counted and named in an ERROR; the events
     * around it (in its batch or not) go once, in order: the transaction is sent again without it, or, with
     * transactions off, the others of the batch are written already and nothing is sent again.
     */
    @ParameterizedTest(name = "transactional={0}")
    @ValueSource(booleans = {true, false})
    void anEventTooLargeIsLeftOutAndCountedAndTheOthersGoOnceInOrder(boolean transactional) throws Exception {
        String topic = KafkaTestBroker.newTopic("large", Map.of("max.message.bytes", "10000"));
        LoggerContext context = TestLogback.newContext();
        LockFreeKafkaAppender appender = appender(context, topic, dir.resolve("large.journal"));
        if (!transactional) {
            transactionsOff(appender);
        }
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            if (i == 10) {
                logger.info("large " + "x".repeat(20_000));
            }
            logger.info("small " + i);
            expected.add("small " + i);
        }
        appender.stop();

        assertThat(CommittedReader.toHighWatermark(KafkaTestBroker.bootstrap(), topic)).extracting(CommittedReader::value).as(TestLogback.statuses(context))
                .containsExactlyElementsOf(expected);
        assertThat(appender.getKafkaCounters().tooLarge()).isEqualTo(1);
        assertThat(appender.getKafkaCounters().eventsDelivered()).isEqualTo(expected.size());
        assertThat(TestLogback.warnings(context)).singleElement().asString().contains("too large").contains("max.request.size");
    }

    @Test
    void aKeyFromTheMdcAndNoneWhereTheMdcHasNoValue() throws Exception {
        String topic = KafkaTestBroker.newTopic("keys");
        LoggerContext context = TestLogback.newContext();
        LockFreeKafkaAppender mdc = appender(context, topic, dir.resolve("mdc.journal"));
        mdc.setKey("mdc:order");
        mdc.start();
        assertThat(mdc.isStarted()).as(TestLogback.statuses(context)).isTrue();
        Logger logger = logger(context, mdc);
        MDC.put("order", "o-42");
        try {
            logger.info("with");
        } finally {
            MDC.remove("order");
        }
        logger.info("without");
        mdc.stop();

        List<ConsumerRecord<byte[], byte[]>> records = CommittedReader.toHighWatermark(KafkaTestBroker.bootstrap(), topic);
        assertThat(records).as(TestLogback.statuses(context) + mdc.getStatistics()).extracting(CommittedReader::value)
                .containsExactly("with", "without");
        assertThat(new String(records.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("o-42");
        assertThat(records.get(1).key()).isNull();
        assertThat(records.get(0).headers().toArray()).isEmpty();
    }

    @Test
    void badSettingsAreNamedAndTheAppenderDoesNotStart() {
        LoggerContext context = TestLogback.newContext();
        LockFreeKafkaAppender appender = new LockFreeKafkaAppender();
        appender.setContext(context);
        appender.setName("KAFKA");
        appender.setEncoder(encoder(context));
        appender.setKey("partition");
        appender.setHeaders("level,host");
        appender.addProducerConfig("transactional.id=mine");
        appender.addProducerConfig("max.block.ms=10s");
        appender.addProducerConfig("batch.size=64KB");
        appender.start();

        assertThat(appender.isStarted()).isFalse();
        String errors = TestLogback.statuses(context);
        assertThat(errors).contains("topic").contains("bootstrap.servers").contains("key").contains("partition")
                .contains("headers").contains("level,host").contains("transactionalIdPrefix")
                .contains("max.block.ms=10s").contains("max.block.ms as a whole number of milliseconds")
                .contains("batch.size=64KB").contains("batch.size as a whole number of bytes");
    }

    /**
     * Two instances of one application on one host, each with a journal of its own and no transactionalIdPrefix:
     * their default transactional ids differ (each holds a hash of its journal's path), so neither fences the other
     * (with one id for both, each start and each new producer fenced the other's); every event of each goes once,
     * in its order.
     */
    @Test
    void twoInstancesOfOneApplicationOnOneHostHaveTransactionalIdsOfTheirOwn() throws Exception {
        String topic = KafkaTestBroker.newTopic("two");
        List<LoggerContext> contexts = List.of(TestLogback.newContext(), TestLogback.newContext());
        List<LockFreeKafkaAppender> appenders = new ArrayList<>();
        List<Thread> callers = new ArrayList<>();
        List<String> all = new ArrayList<>();
        int events = 3_000;
        for (int i = 0; i < 2; i++) {
            LockFreeKafkaAppender appender = appender(contexts.get(i), topic, dir.resolve("instance-" + i + ".journal"));
            appender.setTransactionalIdPrefix(null);
            appender.setApplication("shop");
            appender.start();
            assertThat(appender.isStarted()).as(TestLogback.statuses(contexts.get(i))).isTrue();
            appenders.add(appender);
            Logger logger = logger(contexts.get(i), appender);
            int thread = i;
            callers.add(new Thread(() -> {
                for (int n = 0; n < events; n++) {
                    logger.info(Events.event(thread, n));
                }
            }, "instance-" + i));
            for (int n = 0; n < events; n++) {
                all.add(Events.event(i, n));
            }
        }
        callers.forEach(Thread::start);
        for (Thread caller : callers) {
            caller.join();
        }
        appenders.forEach(LockFreeKafkaAppender::stop);

        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        Events.assertExactlyOnceInOrder(values, all);
        assertThat(values).hasSize(all.size());
        for (LoggerContext context : contexts) {
            assertThat(TestLogback.warnings(context)).as("no fencing, no WARN or ERROR").isEmpty();
        }
        Set<String> ids;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.bootstrap()))) {
            ids = admin.listTransactions().all().get(30, TimeUnit.SECONDS).stream()
                    .map(TransactionListing::transactionalId).filter(id -> id.contains("-shop-KAFKA-"))
                    .collect(Collectors.toSet());
            ConfigResource positions = new ConfigResource(ConfigResource.Type.TOPIC, topic + ".positions");
            Config config = admin.describeConfigs(List.of(positions)).all().get(30, TimeUnit.SECONDS).get(positions);
            assertThat(KafkaTopics.POSITION_TOPIC_CONFIG).as("the position topic the sink made")
                    .allSatisfy((name, value) -> assertThat(config.get(name).value()).as(name).isEqualTo(value));
        }
        assertThat(ids).as("the default transactional ids of the two instances").hasSize(2)
                .allMatch(id -> id.startsWith("lockfreelog-") && id.matches(".*-shop-KAFKA-[0-9a-f]{8}"));
    }

    /**
     * A position topic made beforehand without compaction: one WARN names its cleanup.policy and what to set; the
     * sink works with it, every event once, in order.
     */
    @Test
    void aPositionTopicThatIsNotCompactedIsNamedInOneWarning() throws Exception {
        String topic = KafkaTestBroker.newTopic("plain-positions");
        String positions = KafkaTestBroker.newTopic("positions", Map.of("cleanup.policy", "delete"));
        LoggerContext context = TestLogback.newContext();
        LockFreeKafkaAppender appender = appender(context, topic, dir.resolve("plain.journal"));
        appender.setPositionTopic(positions);
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        List<String> all = new ArrayList<>();
        Events.log(logger(context, appender), 0, 100, all);
        appender.stop();
        assertThat(TestLogback.warnings(context)).as(TestLogback.statuses(context)).singleElement().asString()
                .contains("position topic " + positions).contains("cleanup.policy=delete")
                .contains("set cleanup.policy=compact");
        Events.assertExactlyOnceInOrder(CommittedReader.values(KafkaTestBroker.bootstrap(), topic), all);
    }

    static LockFreeKafkaAppender appender(LoggerContext context, String topic, Path journal) {
        LockFreeKafkaAppender appender = new LockFreeKafkaAppender();
        appender.setContext(context);
        appender.setName("KAFKA");
        appender.setTopic(topic);
        appender.setJournal(journal.toString());
        appender.addProducerConfig("bootstrap.servers=" + KafkaTestBroker.bootstrap());
        appender.setTransactionalIdPrefix("test-" + topic);
        appender.setBufferSize(ch.qos.logback.core.util.FileSize.valueOf("1MB"));
        appender.setEncoder(encoder(context));
        return appender;
    }

    /** Transactions off, and no transactional id prefix given (it would be named as unused). */
    static void transactionsOff(LockFreeKafkaAppender appender) {
        appender.setTransactionalIdPrefix(null);
        appender.setTransactional(false);
    }

    /** The tests' encoder: the message alone. */
    static PatternLayoutEncoder encoder(LoggerContext context) {
        return TestLogback.encoder(context, "%msg");
    }

    /** The logger {@code test}, which sends to {@code appender} only. */
    static Logger logger(LoggerContext context, LockFreeKafkaAppender appender) {
        return TestLogback.logger(context, "test", appender);
    }
}
