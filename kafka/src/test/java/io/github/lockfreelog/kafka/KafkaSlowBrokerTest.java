package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A slow broker: a broker of this class's own that clients reach only through a proxy holding every chunk of bytes
 * {@value #DELAY_MILLIS} ms each way (the broker advertises the proxy). The callers return before the broker has
 * answered anything (the sink is still setting up), never wait for room, and every event goes once, in order.
 */
class KafkaSlowBrokerTest {

    static final long DELAY_MILLIS = 100;
    static final int THREADS = 4;

    private static EmbeddedKafkaKraftBroker broker;
    private static DelayingProxy proxy;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws Exception {
        proxy = new DelayingProxy(DELAY_MILLIS);
        // clients are told the proxy's address (EXTERNAL: the test kit's listener for clients and between brokers);
        // the broker listens where the kit puts it, which the proxy learns once it started
        broker = KafkaTestBroker.start(Map.of("advertised.listeners", "EXTERNAL://localhost:" + proxy.port()));
        String direct = broker.getBrokersAsString();
        proxy.brokerPort = Integer.parseInt(direct.substring(direct.lastIndexOf(':') + 1));
    }

    @AfterAll
    static void stopBroker() throws IOException {
        if (broker != null) {
            broker.destroy();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void callersNeverWaitForASlowBrokerAndEveryEventGoesOnceInOrder() throws Exception {
        String topic = "slow-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        broker.addTopics(new NewTopic(topic, 1, (short) 1));
        String bootstrap = "localhost:" + proxy.port();
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("slow.journal"));
        appender.setProducerProperties(Map.of("bootstrap.servers", bootstrap));
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        int events = 2_500;
        List<String> all = Events.logFromThreads(logger, THREADS, events);
        long deliveredWhenCallersReturned = appender.getKafkaCounters().eventsDelivered();
        appender.stop();

        assertThat(proxy.chunks.get()).as("the clients' bytes went through the proxy").isPositive();
        assertThat(deliveredWhenCallersReturned).as("the callers returned before the broker took an event").isZero();
        assertThat(appender.getStatistics().waits()).as("callers waiting for room").isZero();
        assertThat(appender.getStatistics().dropped()).isZero();
        List<String> values = CommittedReader.values(bootstrap, topic);
        assertThat(values).as(statuses(context)).hasSize(all.size());
        Events.assertExactlyOnceInOrder(values, all);
    }

    /** A TCP proxy to {@code localhost:brokerPort} that holds each chunk it reads {@code delayMillis} before passing it on. */
    static final class DelayingProxy implements AutoCloseable {

        /** Where the broker listens, once it started. */
        volatile int brokerPort;
        private final long delayMillis;
        private final ServerSocket server;
        final AtomicLong chunks = new AtomicLong();

        DelayingProxy(long delayMillis) throws IOException {
            this.delayMillis = delayMillis;
            this.server = new ServerSocket(0);
            Thread accept = new Thread(this::accept, "slow-proxy-accept");
            accept.setDaemon(true);
            accept.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void accept() {
            while (!server.isClosed()) {
                Socket client = null;
                try {
                    client = server.accept();
                    Socket upstream = new Socket("localhost", brokerPort);
                    pump(client, upstream);
                    pump(upstream, client);
                } catch (IOException e) {
                    if (client != null) {
                        closeQuietly(client); // the broker not there yet: the client tries again
                    }
                }
            }
        }

        private void pump(Socket from, Socket to) {
            Thread pump = new Thread(() -> {
                byte[] buffer = new byte[64 * 1024];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        TimeUnit.MILLISECONDS.sleep(delayMillis);
                        chunks.incrementAndGet();
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (IOException | InterruptedException e) {
                    // one side went away
                } finally {
                    closeQuietly(from);
                    closeQuietly(to);
                }
            }, "slow-proxy-pump");
            pump.setDaemon(true);
            pump.start();
        }

        private static void closeQuietly(Socket socket) {
            try {
                socket.close();
            } catch (IOException e) {
                // gone already
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
