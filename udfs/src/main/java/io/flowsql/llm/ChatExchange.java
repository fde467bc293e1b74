package io.flowsql.llm;

import dev.failsafe.ExecutionContext;
import dev.failsafe.function.ContextualSupplier;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.ListenableFuture;
import org.asynchttpclient.RequestBuilder;
import org.asynchttpclient.Response;
import org.asynchttpclient.uri.Uri;

/**
 * One HTTP attempt at {@code /chat/completions} (or {@code /embeddings}) for one request, as Failsafe runs it (once per
 * attempt): posts the request and decodes or classifies the answer. Cancelling the returned future (the caller's cancel, the attempt's
 * or the call's timeout) aborts the exchange, which closes its connection.
 */
final class ChatExchange implements ContextualSupplier<WireCompletion, CompletionStage<WireCompletion>> {
    private final Endpoint endpoint;
    private final Uri uri;
    private final Supplier<byte[]> body;
    private final BiFunction<byte[], Boolean, WireCompletion> decode;

    /**
     * What every exchange with one server shares: the client, the two addresses (parsed and encoded once, by
     * async-http-client's own rules: {@link #encodedUri}) and the Authorization header's value, checked once
     * ({@link #headerValue}: each request then skips the header check and the URL's parse and encoding).
     */
    record Endpoint(AsyncHttpClient http, Uri chatUri, Uri embeddingsUri, String authorization, ChatWireEncoder encoder,
            ChatWireDecoder decoder, EmbeddingWire embeddings) {

        /** {@code baseUrl} ends before {@code /chat/completions}. */
        static Endpoint of(AsyncHttpClient http, String baseUrl, String authorization, ChatWireEncoder encoder,
                ChatWireDecoder decoder, EmbeddingWire embeddings) {
            return new Endpoint(http, encodedUri(baseUrl + "/chat/completions"), encodedUri(baseUrl + "/embeddings"),
                    authorization == null ? null : headerValue("Authorization", authorization), encoder, decoder,
                    embeddings);
        }
    }

    private ChatExchange(Endpoint endpoint, Uri uri, Supplier<byte[]> body,
            BiFunction<byte[], Boolean, WireCompletion> decode) {
        this.endpoint = endpoint;
        this.uri = uri;
        this.body = body;
        this.decode = decode;
    }

    /** A chat-completions attempt. */
    static ChatExchange chat(Endpoint endpoint, ChatRequest request) {
        return new ChatExchange(endpoint, endpoint.chatUri(),
                () -> endpoint.encoder().encode(request),
                (bytes, simulated) -> endpoint.decoder().decode(bytes, request.model(), simulated));
    }

    /** An embeddings attempt for one batch (its model resolved). */
    static ChatExchange embeddings(Endpoint endpoint, EmbeddingRequest batch) {
        return new ChatExchange(endpoint, endpoint.embeddingsUri(),
                () -> endpoint.embeddings().encode(batch),
                (bytes, simulated) -> endpoint.embeddings().decode(bytes, batch, simulated));
    }

    /** {@code url} as async-http-client sends it when given the text: parsed, its path and query encoded. */
    static Uri encodedUri(String url) {
        return new RequestBuilder("POST").setUrl(url).build().getUri();
    }

    /**
     * {@code value} if an HTTP header may carry it (tabs and printable ASCII only: no line break can end the header
     * early and start another), else an error naming the header, not the value (it is a secret).
     */
    static String headerValue(String header, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != '\t' && (c < 0x20 || c > 0x7e)) {
                throw new IllegalArgumentException(header + " header: character " + (i + 1) + " of its value (code "
                        + (int) c + ") is not allowed in an HTTP header (check llm.api-key)");
            }
        }
        return value;
    }

    @Override
    public CompletionStage<WireCompletion> get(ExecutionContext<WireCompletion> context) {
        if (context.isCancelled()) {
            return CompletableFuture.failedFuture(AttemptGate.cancelled());
        }
        // the address is already encoded and the header values checked (Endpoint.of): neither is done again here
        RequestBuilder post = new RequestBuilder("POST", true, false)
                .setUri(uri)
                .setHeader("Content-Type", "application/json")
                .setBody(body.get());
        if (endpoint.authorization() != null) {
            post.setHeader("Authorization", endpoint.authorization());
        }
        ListenableFuture<Response> inFlight = endpoint.http().executeRequest(post.build());
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
