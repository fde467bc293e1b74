package io.flowsql.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import io.flowsql.events.EventJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** Reading requests and writing responses of the console's JDK HTTP server: bounded JSON bodies, cookies, safe headers. */
final class HttpIo {
    /** A request body larger than this is refused (a question or a statement is far smaller). */
    static final int MAX_BODY_BYTES = 256 * 1024;
    /** A request body not read whole within this long loses its connection (a slow client must not hold a thread). */
    static final long BODY_MILLIS = 10_000;

    /** No script, style or connection from anywhere but the console itself; no framing. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /** Closes the connections whose request bodies are late (one daemon thread for the whole process). */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "console-body-deadline");
        t.setDaemon(true);
        return t;
    });

    private static final String BODY = "flowsql.console.body";

    private HttpIo() {}

    /** Thrown for a request the console refuses, with the status and message the page receives. */
    static final class Refused extends RuntimeException {
        final int status;
        /** Seconds after which the same request may succeed (sent as {@code Retry-After}), or 0. */
        final int retryAfterSeconds;

        Refused(int status, String message) {
            this(status, message, 0);
        }

        Refused(int status, String message, int retryAfterSeconds) {
            super(message);
            this.status = status;
            this.retryAfterSeconds = retryAfterSeconds;
        }
    }

    /**
     * Reads the whole request body before anything else is done with the request, so no response ever waits on a
     * body still arriving: refused with 413 past {@link #MAX_BODY_BYTES} (a declared length before anything is read),
     * and a body not read whole within {@link #BODY_MILLIS} loses its connection (closed from the deadline thread,
     * which ends the blocked read), so a client that drips or stalls its body frees its server thread.
     */
    static void readBody(HttpExchange exchange) throws IOException {
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null && declared.trim().matches("\\d{1,18}") && Long.parseLong(declared.trim()) > MAX_BODY_BYTES) {
            throw new Refused(413, "request body over " + MAX_BODY_BYTES + " bytes");
        }
        ScheduledFuture<?> cut = DEADLINES.schedule(exchange::close, BODY_MILLIS, TimeUnit.MILLISECONDS);
        try {
            InputStream in = exchange.getRequestBody();
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw new Refused(413, "request body over " + MAX_BODY_BYTES + " bytes");
            }
            in.close();   // at its end: nothing left to drain
            exchange.setAttribute(BODY, body);
        } finally {
            cut.cancel(false);
        }
    }

    /** The request's body (read by {@link #readBody}) as one JSON object. */
    static JsonNode readJson(HttpExchange exchange) {
        try {
            JsonNode node = EventJson.mapper().readTree((byte[]) exchange.getAttribute(BODY));
            if (node == null || !node.isObject()) {
                throw new Refused(400, "the body must be one JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new Refused(400, "not JSON: " + e.getMessage());
        }
    }

    /** A text field of the body, required and at most {@code maxLength} characters. */
    static String text(JsonNode body, String field, int maxLength) {
        JsonNode v = body.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new Refused(400, "'" + field + "' is required");
        }
        if (v.asText().length() > maxLength) {
            throw new Refused(400, "'" + field + "' is over " + maxLength + " characters");
        }
        return v.asText();
    }

    static void securityHeaders(Headers h) {
        h.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Cache-Control", "no-store");
    }

    static void sendJson(HttpExchange exchange, int status, JsonNode body) throws IOException {
        send(exchange, status, "application/json; charset=utf-8", body.toString().getBytes(StandardCharsets.UTF_8));
    }

    static void sendError(HttpExchange exchange, int status, String message) throws IOException {
        if (status == 413) {
            exchange.getResponseHeaders().set("Connection", "close");   // the rest of the body is not read
        }
        ObjectNode body = EventJson.mapper().createObjectNode();
        body.putObject("error").put("kind", "request").put("message", message);
        sendJson(exchange, status, body);
    }

    static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        securityHeaders(exchange.getResponseHeaders());
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** The value of one cookie of the request. */
    static Optional<String> cookie(HttpExchange exchange, String name) {
        for (String header : exchange.getRequestHeaders().getOrDefault("Cookie", java.util.List.of())) {
            for (String part : header.split(";")) {
                int eq = part.indexOf('=');
                if (eq > 0 && part.substring(0, eq).trim().equals(name)) {
                    return Optional.of(part.substring(eq + 1).trim());
                }
            }
        }
        return Optional.empty();
    }

    /** An HttpOnly, SameSite=Strict cookie for the whole console. */
    static void setCookie(HttpExchange exchange, String name, String value) {
        exchange.getResponseHeaders().add("Set-Cookie", name + "=" + value + "; Path=/; HttpOnly; SameSite=Strict");
    }
}
