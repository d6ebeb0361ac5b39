package io.github.lockfreelog.kafka;


import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.testsupport.TestLogback;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A broker that refuses the sink's principal (ACLs, Kafka's {@code StandardAuthorizer}, a broker of this class's
 * own): the application goes on, the events wait in the journal, one ERROR says what to grant and which setting
 * to change; once the grant is there, every event goes once, in order.
 */
class KafkaAuthorizationTest {

    /** PLAINTEXT clients are all this principal; what no ACL names stays allowed. */
    private static final String PRINCIPAL = "User:ANONYMOUS";

    private static EmbeddedKafkaKraftBroker broker;
    private static Admin admin;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() {
        broker = KafkaTestBroker.start(Map.of(
                "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "allow.everyone.if.no.acl.found", "true"));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()));
    }

    @AfterAll
    static void stopBroker() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        if (broker != null) {
            broker.destroy();
        }
    }

    @Test
    void aTopicThePrincipalMayNotWriteIsNamedWithWhatToGrantAndTheEventsWait() throws Exception {
        String topic = "denied-" + UUID.randomUUID().toString().substring(0, 8);
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
        AclBinding deny = new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry(PRINCIPAL, "*", AclOperation.WRITE, AclPermissionType.DENY));
        refusedThenGranted(topic, deny, "refused topic " + topic, "WRITE", "security.protocol");
    }

    @Test
    void aTransactionalIdThePrincipalMayNotUseIsNamedWithTheWayOut() throws Exception {
        String topic = "txdenied-" + UUID.randomUUID().toString().substring(0, 8);
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
        AclBinding deny = new AclBinding(new ResourcePattern(ResourceType.TRANSACTIONAL_ID, "test-" + topic,
                PatternType.PREFIXED), new AccessControlEntry(PRINCIPAL, "*", AclOperation.WRITE, AclPermissionType.DENY));
        refusedThenGranted(topic, deny, "may not use transactional.id test-" + topic + ";", "transactionalIdPrefix",
                "transactional=false");
    }

    /**
     * Under {@code deny}, the appender starts and its events wait; one ERROR holds each of {@code named}; once the
     * ACL is gone, every event goes once, in order.
     */
    private void refusedThenGranted(String topic, AclBinding deny, String... named) throws Exception {
        admin.createAcls(List.of(deny)).all().get(60, TimeUnit.SECONDS);
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("denied.journal"));
        appender.setProducerProperties(Map.of("bootstrap.servers", broker.getBrokersAsString(), "max.block.ms", "5000"));
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> all = new ArrayList<>();
        Events.log(logger, 0, 50, all);
        Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> !TestLogback.statusMessages(context, Status.ERROR).isEmpty());
        assertThat(TestLogback.statusMessages(context, Status.ERROR).get(0)).as(statuses(context)).contains(named);
        assertThat(appender.getStatistics().dropped()).isZero();

        admin.deleteAcls(List.of(deny.toFilter())).all().get(60, TimeUnit.SECONDS);
        Events.log(logger, 50, 100, all);
        appender.stop();

        List<String> values = CommittedReader.toHighWatermark(broker.getBrokersAsString(), topic).stream()
                .map(CommittedReader::value).toList();
        assertThat(values).as(statuses(context)).hasSize(all.size());
        Events.assertExactlyOnceInOrder(values, all);
        assertThat(appender.getStatistics().dropped()).isZero();
    }
}
