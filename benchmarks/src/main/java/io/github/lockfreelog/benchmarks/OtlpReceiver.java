package io.github.lockfreelog.benchmarks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.GZIPInputStream;

/**
 * The one OTLP/HTTP receiver of a run, which every OTLP peer sends to: {@code POST /<trial>/v1/logs} with an
 * {@code ExportLogsServiceRequest} (protobuf, gzip when the request says so), answered {@code 200} with an empty
 * {@code ExportLogsServiceResponse} once its records are counted. Each trial has its own path, so one receiver serves
 * every fork of a run; {@code GET /<trial>/count} answers {@code records bodyBytes} of that trial. It walks the wire
 * format itself (request, resource logs, scope logs, log record, body): it must cost little, since on 2 CPUs it runs
 * beside the fork it counts. The runner starts it in its own JVM, so the forks' CPU time does not include it.
 *
 * <p>A receiver made with {@code keepRecords} also keeps each record's body and {@code log.record.uid} (the kill
 * test's count); one without keeps counts only.
 */
final class OtlpReceiver implements AutoCloseable {

    /** System property of the forks: the receiver's base URL ({@code http://127.0.0.1:PORT}). */
    static final String PROPERTY = "lockfreelog.bench.otlp";
    static final String UID = "log.record.uid";

    /** One record as received: its body and its {@code log.record.uid} (null when it has none). */
    record Received(String body, String uid) {
    }

    /** What one trial's path received. */
    static final class Trial {
        long records;
        long bodyBytes;
        long requests;
        final List<Received> kept = new ArrayList<>();
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final boolean keepRecords;
    private final Map<String, Trial> trials = new ConcurrentHashMap<>();

    private OtlpReceiver(HttpServer server, ExecutorService executor, boolean keepRecords) {
        this.server = server;
        this.executor = executor;
        this.keepRecords = keepRecords;
    }

    /** Starts a receiver on a free port of the loopback interface. */
    static OtlpReceiver start(boolean keepRecords) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
            Thread thread = new Thread(r, "otlp-receiver");
            thread.setDaemon(true);
            return thread;
        });
        OtlpReceiver receiver = new OtlpReceiver(server, executor, keepRecords);
        server.createContext("/", receiver::handle);
        server.setExecutor(executor);
        server.start();
        return receiver;
    }

    /** {@code http://127.0.0.1:PORT}. */
    String baseUrl() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
    }

    /** The logs endpoint of {@code trial}: {@code BASE/<trial>/v1/logs}. */
    static String endpoint(String baseUrl, String trial) {
        return baseUrl + "/" + trial + "/v1/logs";
    }

    /** Every trial's path that was sent to or asked about, by name. */
    Map<String, Trial> trials() {
        return trials;
    }

    /** What {@code trial} received so far (a new, empty one when nothing). */
    Trial trial(String trial) {
        return trials.computeIfAbsent(trial, t -> new Trial());
    }

    /** Asks the receiver at {@code baseUrl} for {@code trial}'s counts: records and body bytes. */
    static LineCounter.Count count(String baseUrl, String trial) throws IOException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(baseUrl + "/" + trial + "/count"))
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
            String[] parts = answer.body().trim().split(" ");
            return new LineCounter.Count(Long.parseLong(parts[0]), Long.parseLong(parts[1]), 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking the OTLP receiver for " + trial, e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            int slash = path.indexOf('/', 1);
            String trial = slash < 0 ? "" : path.substring(1, slash);
            String rest = slash < 0 ? path : path.substring(slash);
            if (exchange.getRequestMethod().equals("GET") && rest.equals("/count")) {
                Trial counts = trial(trial);
                String text;
                synchronized (counts) {
                    text = counts.records + " " + counts.bodyBytes;
                }
                answer(exchange, 200, "text/plain", text.getBytes(StandardCharsets.US_ASCII));
                return;
            }
            if (!exchange.getRequestMethod().equals("POST") || !rest.equals("/v1/logs")) {
                answer(exchange, 404, "text/plain", "no such path".getBytes(StandardCharsets.US_ASCII));
                return;
            }
            byte[] body;
            try (InputStream raw = exchange.getRequestBody();
                    InputStream in = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                            ? new GZIPInputStream(raw) : raw) {
                body = in.readAllBytes();
            }
            Walk walk = new Walk(keepRecords);
            try {
                walk.request(ByteBuffer.wrap(body));
            } catch (RuntimeException e) {
                answer(exchange, 400, "text/plain", ("cannot parse the request: " + e).getBytes(StandardCharsets.UTF_8));
                return;
            }
            Trial counts = trial(trial);
            synchronized (counts) {
                counts.records += walk.records;
                counts.bodyBytes += walk.bodyBytes;
                counts.requests++;
                counts.kept.addAll(walk.kept);
            }
            answer(exchange, 200, "application/x-protobuf", new byte[0]); // ExportLogsServiceResponse, all accepted
        }
    }

    private static void answer(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** One request's walk over the wire format, counting records (and keeping their bodies and uids when asked). */
    static final class Walk {
        private final boolean keep;
        long records;
        long bodyBytes;
        final List<Received> kept = new ArrayList<>();

        Walk(boolean keep) {
            this.keep = keep;
        }

        void request(ByteBuffer in) {
            eachLen(in, 1, this::resourceLogs); // ExportLogsServiceRequest.resource_logs
        }

        private void resourceLogs(ByteBuffer in) {
            eachLen(in, 2, this::scopeLogs); // ResourceLogs.scope_logs
        }

        private void scopeLogs(ByteBuffer in) {
            eachLen(in, 2, this::logRecord); // ScopeLogs.log_records
        }

        private void logRecord(ByteBuffer in) {
            records++;
            String body = null;
            String uid = null;
            while (in.hasRemaining()) {
                int tag = (int) varint(in);
                int field = tag >>> 3;
                if ((tag & 7) == 2) {
                    ByteBuffer value = len(in);
                    if (field == 5) { // body: AnyValue
                        ByteBuffer text = stringOf(value);
                        bodyBytes += text == null ? 0 : text.remaining();
                        body = keep && text != null ? StandardCharsets.UTF_8.decode(text).toString() : null;
                    } else if (field == 6 && keep) { // attributes: KeyValue
                        String[] pair = keyValue(value);
                        if (pair != null && pair[0].equals(UID)) {
                            uid = pair[1];
                        }
                    }
                } else {
                    skip(in, tag & 7);
                }
            }
            if (keep) {
                kept.add(new Received(body, uid));
            }
        }

        /** The string of an AnyValue (field 1), or null. */
        private static ByteBuffer stringOf(ByteBuffer anyValue) {
            while (anyValue.hasRemaining()) {
                int tag = (int) varint(anyValue);
                if ((tag & 7) == 2) {
                    ByteBuffer value = len(anyValue);
                    if (tag >>> 3 == 1) {
                        return value;
                    }
                } else {
                    skip(anyValue, tag & 7);
                }
            }
            return null;
        }

        private static String[] keyValue(ByteBuffer in) {
            String key = null;
            String value = null;
            while (in.hasRemaining()) {
                int tag = (int) varint(in);
                if ((tag & 7) == 2) {
                    ByteBuffer bytes = len(in);
                    if (tag >>> 3 == 1) {
                        key = StandardCharsets.UTF_8.decode(bytes).toString();
                    } else if (tag >>> 3 == 2) {
                        ByteBuffer text = stringOf(bytes);
                        value = text == null ? null : StandardCharsets.UTF_8.decode(text).toString();
                    }
                } else {
                    skip(in, tag & 7);
                }
            }
            return key == null ? null : new String[] {key, value};
        }

        private static void eachLen(ByteBuffer in, int field, java.util.function.Consumer<ByteBuffer> each) {
            while (in.hasRemaining()) {
                int tag = (int) varint(in);
                if ((tag & 7) == 2) {
                    ByteBuffer value = len(in);
                    if (tag >>> 3 == field) {
                        each.accept(value);
                    }
                } else {
                    skip(in, tag & 7);
                }
            }
        }

        private static ByteBuffer len(ByteBuffer in) {
            int length = (int) varint(in);
            ByteBuffer value = in.slice(in.position(), length);
            in.position(in.position() + length);
            return value;
        }

        private static void skip(ByteBuffer in, int wireType) {
            switch (wireType) {
                case 0 -> varint(in);
                case 1 -> in.position(in.position() + 8);
                case 5 -> in.position(in.position() + 4);
                default -> throw new IllegalArgumentException("wire type " + wireType);
            }
        }

        private static long varint(ByteBuffer in) {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                byte b = in.get();
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new IllegalArgumentException("a varint longer than 10 bytes");
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
