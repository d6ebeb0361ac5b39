package io.github.lockfreelog.testsupport.kafka;

import java.io.IOException;
import java.io.InputStream;

/**
 * One node of a {@link KafkaCluster}: Kafka's own server main ({@code kafka.Kafka}) with the node's properties file,
 * in a JVM that halts when its standard input ends, so that a node never outlives the test JVM that started it,
 * however that JVM died.
 */
public final class KafkaNode {

    private KafkaNode() {
    }

    public static void main(String[] args) {
        Thread watch = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // the cluster never writes: the end of the stream is its death, or its close
                }
            } catch (IOException e) {
                // the same
            }
            Runtime.getRuntime().halt(1);
        }, "parent-watch");
        watch.setDaemon(true);
        watch.start();
        kafka.Kafka.main(args);
    }
}
