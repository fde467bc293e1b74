package io.flowsql.llm;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.BoundRequestBuilder;
import org.asynchttpclient.ListenableFuture;
import org.asynchttpclient.Response;

/**
 * One HTTP attempt at /chat/completions: waits for a connection permit (bounded concurrency), posts
 * with a timeout that never outlives the call's deadline, and decodes or classifies the answer.
 */
final class HttpAttempt {
    private final AsyncHttpClient http;
    private final String url;
    private final String authorization;
    private final Duration callTimeout;
    private final ChatWireEncoder encoder;
    private final ChatWireDecoder decoder;
    private final AsyncPermits permits;
    private final ScheduledExecutorService scheduler;

    HttpAttempt(AsyncHttpClient http, LlmClientConfig config, ChatWireEncoder encoder, ChatWireDecoder decoder,
            ScheduledExecutorService scheduler) {
        this.http = http;
        this.url = config.baseUrl() + "/chat/completions";
        this.authorization = config.apiKey() == null ? null : "Bearer " + config.apiKey();
        this.callTimeout = config.callTimeout();
        this.encoder = encoder;
        this.decoder = decoder;
        this.permits = new AsyncPermits(config.maxConcurrency());
        this.scheduler = scheduler;
    }

    CompletableFuture<WireCompletion> send(ChatRequest resolved, long deadlineNanos) {
        return send(resolved, deadlineNanos, new CallControl());
    }

    /** As above; cancelling {@code control} drops the wait for a permit or aborts the request (freeing its permit). */
    CompletableFuture<WireCompletion> send(ChatRequest resolved, long deadlineNanos, CallControl control) {
        CompletableFuture<Void> permit = permits.acquire();
        if (!permit.isDone()) {
            control.onCancel(() -> permit.completeExceptionally(CallControl.cancelledFailure()));
            long remaining = deadlineNanos - System.nanoTime();
            ScheduledFuture<?> guard = scheduler.schedule(() -> permit.completeExceptionally(new LlmException(
                    LlmErrorKind.RETRIES_EXHAUSTED, "call budget spent waiting for a connection slot")),
                    Math.max(0, remaining), TimeUnit.NANOSECONDS);
            permit.whenComplete((ok, error) -> guard.cancel(false));
        }
        return permit.thenCompose(ok -> {
            CompletableFuture<WireCompletion> call;
            try {
                call = control.isCancelled() ? CompletableFuture.failedFuture(CallControl.cancelledFailure())
                        : post(resolved, deadlineNanos, control);
            } catch (RuntimeException e) {
                call = CompletableFuture.failedFuture(e);
            }
            return call.whenComplete((result, error) -> permits.release());
        });
    }

    private CompletableFuture<WireCompletion> post(ChatRequest resolved, long deadlineNanos, CallControl control) {
        long remainingMillis = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
        Duration timeout = Duration.ofMillis(Math.min(callTimeout.toMillis(), remainingMillis));
        BoundRequestBuilder request = http.preparePost(url)
                .setHeader("Content-Type", "application/json")
                .setBody(encoder.encode(resolved))
                .setRequestTimeout(timeout)
                .setReadTimeout(timeout);
        if (authorization != null) {
            request.setHeader("Authorization", authorization);
        }
        ListenableFuture<Response> inFlight = request.execute();
        control.onCancel(() -> inFlight.abort(CallControl.cancelledFailure()));
        return inFlight.toCompletableFuture().handle((response, error) -> {
            if (error != null) {
                if (control.isCancelled()) {
                    throw CallControl.cancelledFailure();
                }
                throw FailureClassifier.ofThrowable(error);
            }
            return read(response, resolved.model());
        });
    }

    private WireCompletion read(Response response, String model) {
        int status = response.getStatusCode();
        if (status >= 200 && status < 300) {
            boolean simulatedHeader = "true".equalsIgnoreCase(response.getHeader("X-FlowSQL-Simulated"));
            return decoder.decode(response.getResponseBodyAsBytes(), model, simulatedHeader);
        }
        String body = new String(response.getResponseBodyAsBytes(), StandardCharsets.UTF_8);
        throw FailureClassifier.ofStatus(status, response.getHeader("Retry-After"),
                body.length() > 2000 ? body.substring(0, 2000) : body);
    }
}
