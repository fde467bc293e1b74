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

/** Reading requests and writing responses of the console's JDK HTTP server: bounded JSON bodies, cookies, safe headers. */
final class HttpIo {
    /** A request body larger than this is refused (a question or a statement is far smaller). */
    static final int MAX_BODY_BYTES = 256 * 1024;

    /** No script, style or connection from anywhere but the console itself; no framing. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private HttpIo() {}

    /** Thrown for a request the console refuses, with the status and message the page receives. */
    static final class Refused extends RuntimeException {
        final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    static JsonNode readJson(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw new Refused(413, "request body over " + MAX_BODY_BYTES + " bytes");
            }
            JsonNode node = EventJson.mapper().readTree(body);
            if (node == null || !node.isObject()) {
                throw new Refused(400, "the body must be one JSON object");
            }
            return node;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new Refused(400, "not JSON: " + e.getOriginalMessage());
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
