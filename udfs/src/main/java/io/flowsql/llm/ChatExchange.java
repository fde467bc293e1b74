package io.flowsql.llm;

import dev.failsafe.ExecutionContext;
import dev.failsafe.function.ContextualSupplier;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.BoundRequestBuilder;
import org.asynchttpclient.ListenableFuture;
import org.asynchttpclient.Response;

/**
 * One HTTP attempt at {@code /chat/completions} for one request, as Failsafe runs it (once per attempt): posts the
 * request and decodes or classifies the answer. Cancelling the returned future (the caller's cancel, the attempt's
 * or the call's timeout) aborts the exchange, which closes its connection.
 */
final class ChatExchange implements ContextualSupplier<WireCompletion, CompletionStage<WireCompletion>> {
    private final Endpoint endpoint;
    private final ChatRequest request;

    /** What every exchange with one server shares. */
    record Endpoint(AsyncHttpClient http, String url, String authorization, ChatWireEncoder encoder,
            ChatWireDecoder decoder) {}

    ChatExchange(Endpoint endpoint, ChatRequest request) {
        this.endpoint = endpoint;
        this.request = request;
    }

    @Override
    public CompletionStage<WireCompletion> get(ExecutionContext<WireCompletion> context) {
        if (context.isCancelled()) {
            return CompletableFuture.failedFuture(AttemptGate.cancelled());
        }
        BoundRequestBuilder post = endpoint.http().preparePost(endpoint.url())
                .setHeader("Content-Type", "application/json")
                .setBody(endpoint.encoder().encode(request));
        if (endpoint.authorization() != null) {
            post.setHeader("Authorization", endpoint.authorization());
        }
        ListenableFuture<Response> inFlight = post.execute();
        CompletableFuture<WireCompletion> reply = inFlight.toCompletableFuture().thenApply(this::read);
        reply.whenComplete((ignored, error) -> {
            if (reply.isCancelled()) {
                inFlight.abort(AttemptGate.cancelled());
            }
        });
        return reply;
    }

    private WireCompletion read(Response response) {
        int status = response.getStatusCode();
        if (status >= 200 && status < 300) {
            boolean simulatedHeader = "true".equalsIgnoreCase(response.getHeader("X-FlowSQL-Simulated"));
            return endpoint.decoder().decode(response.getResponseBodyAsBytes(), request.model(), simulatedHeader);
        }
        String body = new String(response.getResponseBodyAsBytes(), StandardCharsets.UTF_8);
        throw FailureClassifier.ofStatus(status, response.getHeader("Retry-After"),
                body.length() > 2000 ? body.substring(0, 2000) : body);
    }
}
