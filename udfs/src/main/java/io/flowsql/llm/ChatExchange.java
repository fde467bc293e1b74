package io.flowsql.llm;

import dev.failsafe.ExecutionContext;
import dev.failsafe.function.ContextualSupplier;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.BoundRequestBuilder;
import org.asynchttpclient.ListenableFuture;
import org.asynchttpclient.Response;

/**
 * One HTTP attempt at {@code /chat/completions} (or {@code /embeddings}) for one request, as Failsafe runs it (once per
 * attempt): posts the request and decodes or classifies the answer. Cancelling the returned future (the caller's cancel, the attempt's
 * or the call's timeout) aborts the exchange, which closes its connection.
 */
final class ChatExchange implements ContextualSupplier<WireCompletion, CompletionStage<WireCompletion>> {
    private final Endpoint endpoint;
    private final String url;
    private final Supplier<byte[]> body;
    private final BiFunction<byte[], Boolean, WireCompletion> decode;

    /** What every exchange with one server shares ({@code baseUrl} ends before {@code /chat/completions}). */
    record Endpoint(AsyncHttpClient http, String baseUrl, String authorization, ChatWireEncoder encoder,
            ChatWireDecoder decoder, EmbeddingWire embeddings) {}

    private ChatExchange(Endpoint endpoint, String url, Supplier<byte[]> body,
            BiFunction<byte[], Boolean, WireCompletion> decode) {
        this.endpoint = endpoint;
        this.url = url;
        this.body = body;
        this.decode = decode;
    }

    /** A chat-completions attempt. */
    static ChatExchange chat(Endpoint endpoint, ChatRequest request) {
        return new ChatExchange(endpoint, endpoint.baseUrl() + "/chat/completions",
                () -> endpoint.encoder().encode(request),
                (bytes, simulated) -> endpoint.decoder().decode(bytes, request.model(), simulated));
    }

    /** An embeddings attempt for one batch (its model resolved). */
    static ChatExchange embeddings(Endpoint endpoint, EmbeddingRequest batch) {
        return new ChatExchange(endpoint, endpoint.baseUrl() + "/embeddings",
                () -> endpoint.embeddings().encode(batch),
                (bytes, simulated) -> endpoint.embeddings().decode(bytes, batch, simulated));
    }

    @Override
    public CompletionStage<WireCompletion> get(ExecutionContext<WireCompletion> context) {
        if (context.isCancelled()) {
            return CompletableFuture.failedFuture(AttemptGate.cancelled());
        }
        BoundRequestBuilder post = endpoint.http().preparePost(url)
                .setHeader("Content-Type", "application/json")
                .setBody(body.get());
        if (endpoint.authorization() != null) {
            post.setHeader("Authorization", endpoint.authorization());
        }
        ListenableFuture<Response> inFlight = post.execute();
        CompletableFuture<WireCompletion> reply = inFlight.toCompletableFuture().thenApply(this::read);
        // cancel, not abort: async-http-client's abort() only completes the future (and drops its own request
        // time-out), leaving the connection open until the server answers; cancel(true) closes the channel
        reply.whenComplete((ignored, error) -> {
            if (reply.isCancelled()) {
                inFlight.cancel(true);
            }
        });
        return reply;
    }

    private WireCompletion read(Response response) {
        int status = response.getStatusCode();
        if (status >= 200 && status < 300) {
            boolean simulatedHeader = "true".equalsIgnoreCase(response.getHeader("X-FlowSQL-Simulated"));
            return decode.apply(response.getResponseBodyAsBytes(), simulatedHeader);
        }
        String body = new String(response.getResponseBodyAsBytes(), StandardCharsets.UTF_8);
        throw FailureClassifier.ofStatus(status, response.getHeader("Retry-After"),
                body.length() > 2000 ? body.substring(0, 2000) : body);
    }
}
