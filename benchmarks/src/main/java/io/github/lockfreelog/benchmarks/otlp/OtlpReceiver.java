package io.github.lockfreelog.benchmarks.otlp;

import io.github.lockfreelog.benchmarks.peers.LineCounter;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.RunnerService;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
    static final String PROPERTY = Peer.OTLP_RECEIVER_PROPERTY;
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

    /** The run's receiver, started in the runner's JVM for the OTLP peers' forks ({@link Peer#runnerService()}). */
    public static final class Service implements RunnerService {

        @Override
        public String property() {
            return PROPERTY;
        }

        @Override
        public String start(PrintStream out) throws IOException {
            OtlpReceiver receiver = OtlpReceiver.start(false);
            out.println("OTLP receiver of this run: " + receiver.baseUrl());
            return receiver.baseUrl();
        }
    }

    private final ServerSocket server;
    private final ExecutorService executor;
    private final boolean keepRecords;
    private final Map<String, Trial> trials = new ConcurrentHashMap<>();

    private OtlpReceiver(ServerSocket server, ExecutorService executor, boolean keepRecords) {
        this.server = server;
        this.executor = executor;
        this.keepRecords = keepRecords;
    }

    /**
     * Starts a receiver on a free port of the loopback interface: a thread per connection, which reads requests one
     * after another (keep-alive), as a collector's HTTP server does, and answers as the OpenTelemetry Collector does
     * (200, {@code application/x-protobuf}, the empty response's zero bytes), with {@code TCP_NODELAY} on its answers
     * (Go's servers set it).
     */
    static OtlpReceiver start(boolean keepRecords) throws IOException {
        ServerSocket server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        ExecutorService executor = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "otlp-receiver");
            thread.setDaemon(true);
            return thread;
        });
        OtlpReceiver receiver = new OtlpReceiver(server, executor, keepRecords);
        executor.execute(receiver::accept);
        return receiver;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                executor.execute(() -> serve(socket));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    String baseUrl() {
        return "http://" + server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
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

    /** Serves one connection's requests (HTTP/1.1, a body of {@code Content-Length} bytes) until the client closes it. */
    private void serve(Socket socket) {
        try (socket; InputStream in = new BufferedInputStream(socket.getInputStream(), 65536);
                OutputStream out = new BufferedOutputStream(socket.getOutputStream())) {
            while (true) {
                String requestLine = line(in);
                if (requestLine == null) {
                    return;
                }
                String[] request = requestLine.split(" ");
                long length = 0;
                boolean gzip = false;
                boolean close = false;
                for (String header; !(header = line(in)).isEmpty();) {
                    int colon = header.indexOf(':');
                    String name = header.substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT);
                    String value = header.substring(colon + 1).trim();
                    switch (name) {
                        case "content-length" -> length = Long.parseLong(value);
                        case "content-encoding" -> gzip = value.equalsIgnoreCase("gzip");
                        case "connection" -> close = value.equalsIgnoreCase("close");
                        case "transfer-encoding" -> throw new IOException("chunked bodies are not read here");
                        default -> { }
                    }
                }
                byte[] body = in.readNBytes((int) length);
                handle(request[0], request[1], gzip, body, out);
                out.flush();
                if (close) {
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            // the client went away (a killed child) or spoke what this receiver does not: the connection ends
        }
    }

    /** One line of the request's head, without its CRLF; null at the end of the stream before any byte. */
    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b; (b = in.read()) != '\n';) {
            if (b < 0) {
                if (line.length() == 0) {
                    return null;
                }
                throw new IOException("the stream ended in a request's head");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private void handle(String method, String path, boolean gzip, byte[] body, OutputStream out) throws IOException {
        int slash = path.indexOf('/', 1);
        String trial = slash < 0 ? "" : path.substring(1, slash);
        String rest = slash < 0 ? path : path.substring(slash);
        if (method.equals("GET") && rest.equals("/count")) {
            Trial counts = trial(trial);
            String text;
            synchronized (counts) {
                text = counts.records + " " + counts.bodyBytes;
            }
            answer(out, 200, "text/plain", text.getBytes(StandardCharsets.US_ASCII));
            return;
        }
        if (!method.equals("POST") || !rest.equals("/v1/logs")) {
            answer(out, 404, "text/plain", "no such path".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        if (gzip) {
            try (InputStream unzip = new GZIPInputStream(new java.io.ByteArrayInputStream(body))) {
                body = unzip.readAllBytes();
            }
        }
        RequestWalk walk = new RequestWalk(keepRecords);
        try {
            walk.request(ByteBuffer.wrap(body));
        } catch (RuntimeException e) {
            answer(out, 400, "text/plain", ("cannot parse the request: " + e).getBytes(StandardCharsets.UTF_8));
            return;
        }
        Trial counts = trial(trial);
        synchronized (counts) {
            counts.records += walk.records;
            counts.bodyBytes += walk.bodyBytes;
            counts.requests++;
            counts.kept.addAll(walk.kept);
        }
        answer(out, 200, "application/x-protobuf", new byte[0]); // ExportLogsServiceResponse: all accepted
    }

    private static void answer(OutputStream out, int status, String type, byte[] body) throws IOException {
        out.write(("HTTP/1.1 " + status + (status == 200 ? " OK" : " Error") + "\r\nContent-Type: " + type
                + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing: nothing to keep
        }
        executor.shutdownNow();
    }
}
