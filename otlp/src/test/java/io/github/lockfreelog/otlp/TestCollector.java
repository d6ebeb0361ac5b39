package io.github.lockfreelog.otlp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP logs receiver for the tests (this module's and, through its test-jar, the starter's), on 127.0.0.1: {@code POST /v1/logs} with a protobuf body (gzipped or
 * not), parsed with the official generated classes ({@code opentelemetry-proto}), answered as the specification
 * says (an {@code ExportLogsServiceResponse}). Faults are scripted: each request takes the next {@link Fault} of the
 * queue, if any (its status, {@code Retry-After}, a delay before the answer, a partial success); a request whose
 * answer is not a 2xx is still recorded in {@link #requests}, but its records are kept in {@link #records} only when
 * it is answered with a 2xx (what a collector acknowledged).
 */
public final class TestCollector implements AutoCloseable {

    /** One scripted answer. {@code status} 200 with {@code rejected > 0} is a partial success. */
    public record Fault(int status, String retryAfter, long delayMillis, long rejected, String message) {
        public static Fault status(int status, String message) {
            return new Fault(status, null, 0, 0, message);
        }

        public static Fault retryAfter(int status, String retryAfter) {
            return new Fault(status, retryAfter, 0, 0, "try later");
        }

        public static Fault slow(long delayMillis) {
            return new Fault(200, null, delayMillis, 0, null);
        }

        public static Fault partial(long rejected, String message) {
            return new Fault(200, null, 0, rejected, message);
        }
    }

    /** One record as acknowledged: its resource, its scope's name and itself. */
    public record Received(Resource resource, String scope, LogRecord record) {
        public String body() {
            return record.getBody().getStringValue();
        }

        public String attribute(String key) {
            for (KeyValue kv : record.getAttributesList()) {
                if (kv.getKey().equals(key)) {
                    AnyValue value = kv.getValue();
                    return value.hasIntValue() ? Long.toString(value.getIntValue()) : value.hasBoolValue()
                            ? Boolean.toString(value.getBoolValue()) : value.hasDoubleValue()
                                    ? Double.toString(value.getDoubleValue()) : value.getStringValue();
                }
            }
            return null;
        }

        public String uid() {
            return attribute(ExportRequest.RECORD_UID);
        }
    }

    /** What one request was: when it came, its headers of interest, its records, the status it was answered. */
    public record Request(long nanos, String contentType, String contentEncoding, Map<String, List<String>> headers,
            int records, int status) {
    }

    private final HttpServer server;
    public final ConcurrentLinkedQueue<Fault> faults = new ConcurrentLinkedQueue<>();
    public final List<Received> records = new CopyOnWriteArrayList<>();
    public final List<Request> requests = new CopyOnWriteArrayList<>();
    /** Requests whose client went away before the body was whole (nothing of them was received or answered). */
    public final java.util.concurrent.atomic.AtomicInteger requestsCutShort = new java.util.concurrent.atomic.AtomicInteger();

    /** What the receiver itself failed with: a test that finds one here failed, whatever else it saw. */
    public final List<Throwable> failures = new CopyOnWriteArrayList<>();

    private TestCollector(HttpServer server) {
        this.server = server;
    }

    /** A receiver on a free port of 127.0.0.1. */
    public static TestCollector start() throws IOException {
        return start(0);
    }

    /** A receiver on {@code port} of 127.0.0.1 (0: a free one). */
    public static TestCollector start(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        TestCollector collector = new TestCollector(server);
        server.createContext("/v1/logs", collector::handle);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        return collector;
    }

    /** A port of 127.0.0.1 that nothing listens on now (taken, then let go). */
    public static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port();
    }

    public List<String> bodies() {
        List<String> bodies = new ArrayList<>();
        for (Received received : records) {
            bodies.add(received.body());
        }
        return bodies;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            serve(exchange);
        } catch (IOException | RuntimeException | Error e) {
            failures.add(e); // the test reads it; the client gets no answer, as from a collector that broke
            throw e;
        } finally {
            exchange.close();
        }
    }

    private void serve(HttpExchange exchange) throws IOException {
        {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
            byte[] body;
            try (InputStream in = "gzip".equalsIgnoreCase(encoding) ? new GZIPInputStream(exchange.getRequestBody())
                    : exchange.getRequestBody()) {
                body = in.readAllBytes();
            } catch (IOException e) {
                // the client went away before its request was whole (a process killed mid-send): nothing was received
                // and no answer can reach it, as at a real collector; not the receiver's failure (JDK 25's server
                // reports the short body here, JDK 17's passed it on as it was)
                requestsCutShort.incrementAndGet();
                return;
            }
            ExportLogsServiceRequest request;
            try {
                request = ExportLogsServiceRequest.parseFrom(body);
            } catch (IOException e) {
                requests.add(new Request(System.nanoTime(), exchange.getRequestHeaders().getFirst("Content-Type"),
                        encoding, Map.copyOf(exchange.getRequestHeaders()), -1, 400));
                answer(exchange, 400, null, "not an ExportLogsServiceRequest: " + e.getMessage(), 0);
                return;
            }
            List<Received> received = new ArrayList<>();
            for (ResourceLogs resourceLogs : request.getResourceLogsList()) {
                for (ScopeLogs scopeLogs : resourceLogs.getScopeLogsList()) {
                    for (LogRecord record : scopeLogs.getLogRecordsList()) {
                        received.add(new Received(resourceLogs.getResource(), scopeLogs.getScope().getName(), record));
                    }
                }
            }
            Fault fault = faults.poll();
            int status = fault == null ? 200 : fault.status();
            requests.add(new Request(System.nanoTime(), exchange.getRequestHeaders().getFirst("Content-Type"), encoding,
                    Map.copyOf(exchange.getRequestHeaders()), received.size(), status));
            if (fault != null && fault.delayMillis() > 0) {
                try {
                    Thread.sleep(fault.delayMillis()); // a slow collector: its records are kept, its answer is late
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (status / 100 == 2) {
                records.addAll(received);
            }
            answer(exchange, status, fault == null ? null : fault.retryAfter(), fault == null ? null : fault.message(),
                    fault == null ? 0 : fault.rejected());
        }
    }

    private static void answer(HttpExchange exchange, int status, String retryAfter, String message, long rejected)
            throws IOException {
        byte[] body;
        if (status / 100 == 2) {
            ExportLogsServiceResponse.Builder response = ExportLogsServiceResponse.newBuilder();
            if (rejected > 0) {
                response.setPartialSuccess(ExportLogsPartialSuccess.newBuilder().setRejectedLogRecords(rejected)
                        .setErrorMessage(message == null ? "" : message));
            }
            body = response.build().toByteArray();
        } else {
            // google.rpc.Status {int32 code = 1; string message = 2}, written with protobuf-java's own writer
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            com.google.protobuf.CodedOutputStream status2 = com.google.protobuf.CodedOutputStream.newInstance(bytes);
            status2.writeInt32(1, status);
            status2.writeString(2, message == null ? "" : message);
            status2.flush();
            body = bytes.toByteArray();
        }
        exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
        if (retryAfter != null) {
            exchange.getResponseHeaders().set("Retry-After", retryAfter);
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        if (!failures.isEmpty()) {
            AssertionError failed = new AssertionError("the test receiver failed: " + failures.get(0), failures.get(0));
            server.stop(0);
            throw failed;
        }
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
