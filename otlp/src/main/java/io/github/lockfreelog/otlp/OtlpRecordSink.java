package io.github.lockfreelog.otlp;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.records.FrameBuffer;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordBatch;
import io.github.lockfreelog.sink.RecordSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.GZIPOutputStream;

/**
 * Sends a journal's events to an OpenTelemetry collector, at least once: each batch is one OTLP/HTTP request
 * ({@code POST <endpoint>}, {@code application/x-protobuf}), and {@link #deliver} returns, so that the journal's
 * position moves past the batch, only once the collector answered it with a 2xx (or refused it for good: see
 * below). OTLP has no idempotent write and no way to ask how far a collector holds a journal, so
 * {@link #committed} knows nothing ({@code null}): a batch whose answer was lost, or whose process died before the
 * journal recorded it, is sent again, whole, from its first event; each record carries {@code log.record.uid}
 * (its place in the journal), the same in every copy.
 *
 * <p>Answers, as the OTLP specification has them: 429, 502, 503 and 504 (and, here, any other 5xx, and no answer
 * at all: refused, reset, timed out) are retried, after {@code Retry-After} where the collector gives one, else after
 * an exponential back-off with jitter; 401, 403, 404 and 407 are a setting to change (an ERROR says which), retried
 * at the longest back-off so that fixing it is enough; any other 4xx sets the batch aside: counted as rejected, the
 * collector's message said once. A 2xx with {@code partial_success.rejected_log_records} counts those records as
 * rejected. Only the drainer's thread calls it, except {@link #close}.
 */
final class OtlpRecordSink implements RecordSink {

    /** Before a request goes out (a kill here: the batch was never seen, and goes again). */
    static final String BEFORE_EXPORT = "before-otlp-export";
    static final long FIRST_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How long after a small request began the next one may start (see {@link #linger}). */
    static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** A request under this many bytes is small: a full buffer's never is. */
    static final int SMALL_REQUEST = 256 * 1024;

    private final OtlpSettings settings;
    private final HttpClient client;
    private final ExportRequest requests;
    private final OtlpCounters counters;
    private final StatusReporter status;
    private final CountDownLatch closed = new CountDownLatch(1);
    /** Answers already said, by status and message: each said once. */
    private final Set<String> said = new HashSet<>();
    private boolean probed;
    private int failures;
    private long nextTryNanos;

    OtlpRecordSink(OtlpSettings settings, OtlpCounters counters, StatusReporter status) {
        this.settings = settings;
        this.counters = counters;
        this.status = status;
        this.requests = new ExportRequest(settings.resource());
        this.client = HttpClient.newBuilder().connectTimeout(settings.timeout()).version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /**
     * Knows nothing ({@code null}): no collector says how far it holds a journal. The first call, the drainer's at
     * start, sends an empty request, so that a collector out of reach is said at once (one WARN), before any event
     * waits for it; it never holds up the application's start, which does not call it.
     */
    @Override
    public JournalPosition committed(long journalId) throws IOException {
        if (!probed) {
            Answer answer = exchange(new byte[0], 0);
            if (answer.status() / 100 != 2 && answer.status() != 400) {
                throw failure(answer, 0);
            }
            probed = true;
            counters.reached();
        }
        return null;
    }

    @Override
    public void deliver(RecordBatch batch) throws IOException {
        counters.delivering();
        waitForNextTry();
        FrameBuffer request = requests.build(batch);
        CrashPoint.reached(BEFORE_EXPORT);
        long started = System.nanoTime();
        Answer answer = exchange(request.bytes(), request.length());
        probed = true;
        if (answer.status() / 100 == 2 && request.length() < SMALL_REQUEST) {
            linger(started);
        }
        if (answer.status() / 100 == 2) {
            long rejected = Math.min(batch.count(), Math.max(0, answer.rejected()));
            counters.acknowledged(batch.count(), rejected);
            if (rejected > 0) {
                sayOnce("partial", "the collector at " + settings.endpoint() + " rejected " + rejected + " of "
                        + batch.count() + " records of a request (partial success: " + answer.message() + "); counted as"
                        + " rejected; said once");
            }
            succeeded();
            return;
        }
        if (answer.status() / 100 == 4 && !retried(answer.status()) && !refusal(answer.status())) {
            String error = "HTTP " + answer.status() + ": " + answer.message();
            counters.rejected(batch.count(), error);
            sayOnce(Integer.toString(answer.status()), "the collector at " + settings.endpoint() + " refused a request of "
                    + batch.count() + " records for good (" + error + "); set aside, counted as rejected; each such"
                    + " answer is said once");
            succeeded();
            return;
        }
        throw failure(answer, batch.count());
    }

    /**
     * After a small request (under {@value #SMALL_REQUEST} bytes: the drainer found few events), waits until
     * {@link #LINGER_NANOS} after it began, so that the next request carries what came meanwhile: at a low rate the
     * drainer's passes (a millisecond apart while events arrive) would otherwise each make a request of a few records,
     * whose HTTP work costs more CPU than the records (and takes it from the callers on a small machine). The events
     * wait in the journal meanwhile, as they do in the OpenTelemetry SDK's queue for its {@code scheduleDelay}; a
     * request that a full buffer makes is never held.
     */
    private static void linger(long started) {
        long wait;
        while ((wait = started + LINGER_NANOS - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Whether an answer is retried as an outage: 408, 429 and any 5xx. */
    private static boolean retried(int status) {
        return status == 408 || status == 429 || status / 100 == 5;
    }

    /** Whether an answer asks for a setting or a grant to change: 401, 403, 404, 407. */
    private static boolean refusal(int status) {
        return status == 401 || status == 403 || status == 404 || status == 407;
    }

    private void succeeded() {
        failures = 0;
        nextTryNanos = 0;
        counters.settled();
    }

    /** The exception for an answer that is not a success, the next try scheduled. */
    private IOException failure(Answer answer, int records) {
        failures++;
        counters.retried();
        long delay = answer.retryAfterNanos() >= 0 ? answer.retryAfterNanos() : backoff(failures);
        String error = answer.status() < 0 ? answer.message() : "HTTP " + answer.status() + ": " + answer.message();
        counters.failed(error);
        if (refusal(answer.status())) {
            delay = MAX_BACKOFF_NANOS;
            nextTryNanos = System.nanoTime() + delay;
            return new RefusedException("the collector at " + settings.endpoint() + " refuses the appender (" + error
                    + "): check the endpoint's path and its headers (authorization); the events wait in the journal"
                    + " and go out once it takes them", null);
        }
        nextTryNanos = System.nanoTime() + delay;
        if (records == 0) {
            return new IOException("the collector at " + settings.endpoint() + " does not answer (" + error + ")");
        }
        return new IOException("the collector at " + settings.endpoint() + " did not take " + records + " records ("
                + error + "); next try in " + TimeUnit.NANOSECONDS.toMillis(delay) + " ms");
    }

    /** Exponential back-off after the {@code n}-th failure in a row, with jitter of up to a fifth either way. */
    static long backoff(int n) {
        long base = Math.min(MAX_BACKOFF_NANOS, FIRST_BACKOFF_NANOS << Math.min(n - 1, 10));
        return (long) (base * (0.8 + 0.4 * ThreadLocalRandom.current().nextDouble()));
    }

    /** Waits until the next try is due (a {@code Retry-After}, a back-off); a close ends the wait with a failure. */
    private void waitForNextTry() throws IOException {
        long wait = nextTryNanos - System.nanoTime();
        if (nextTryNanos == 0 || wait <= 0) {
            return;
        }
        try {
            if (closed.await(wait, TimeUnit.NANOSECONDS)) {
                throw new IOException("closed while waiting to send again; the events stay in the journal");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting to send again", e);
        }
    }

    /** Posts {@code body[0..length)}; an answer of status -1 when none came (its message says why). */
    private Answer exchange(byte[] body, int length) {
        if (closed.getCount() == 0) {
            return new Answer(-1, "the sink is closed", -1, 0);
        }
        byte[] content = body;
        int contentLength = length;
        HttpRequest.Builder builder = HttpRequest.newBuilder(settings.endpoint()).timeout(settings.timeout())
                .header("Content-Type", "application/x-protobuf");
        settings.headers().forEach(builder::header);
        try {
            if (settings.gzip()) {
                content = gzip(body, length);
                contentLength = content.length;
                builder.header("Content-Encoding", "gzip");
            }
            HttpRequest request = builder.POST(HttpRequest.BodyPublishers.ofByteArray(content, 0, contentLength)).build();
            counters.sent(contentLength);
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            return Answer.of(response);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, "interrupted", -1, 0);
        } catch (IOException | RuntimeException e) {
            return new Answer(-1, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()),
                    -1, 0);
        }
    }

    private static byte[] gzip(byte[] body, int length) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, length / 4));
        try (GZIPOutputStream zip = new GZIPOutputStream(out, 8192)) {
            zip.write(body, 0, length);
        }
        return out.toByteArray();
    }

    private void sayOnce(String key, String message) {
        if (said.size() < 64 && said.add(key)) {
            status.error(message, null);
        }
    }

    @Override
    public void close(long timeoutNanos) {
        closed.countDown();
    }
}
