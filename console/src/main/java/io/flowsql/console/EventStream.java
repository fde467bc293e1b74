package io.flowsql.console;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * The server-sent event stream of one session: replays its events after the browser's {@code Last-Event-ID}, then
 * sends each new one as it is published, with a comment every few seconds so a closed page is noticed. Streams are
 * bounded (each holds one of the server's threads); the stream of a session carries that session's events only.
 */
final class EventStream {
    static final long KEEP_ALIVE_MILLIS = 10_000;

    private final Semaphore open;

    EventStream(int maxOpen) {
        this.open = new Semaphore(maxOpen);
    }

    /** Serves the stream until the browser goes away or the thread is interrupted (the server stopping). */
    void serve(HttpExchange exchange, Session session) throws IOException {
        if (!open.tryAcquire()) {
            HttpIo.sendError(exchange, 503, "too many open event streams");
            return;
        }
        try {
            HttpIo.securityHeaders(exchange.getResponseHeaders());
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            exchange.sendResponseHeaders(200, 0);
            long cursor = lastEventId(exchange);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("retry: 2000\n\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                while (!Thread.currentThread().isInterrupted()) {
                    List<Session.Event> events = session.eventsAfter(cursor, KEEP_ALIVE_MILLIS);
                    StringBuilder chunk = new StringBuilder();
                    for (Session.Event e : events) {
                        chunk.append("id: ").append(e.id()).append("\nevent: ").append(e.type())
                                .append("\ndata: ").append(e.json()).append("\n\n");
                        cursor = e.id();
                    }
                    out.write((events.isEmpty() ? ": keep-alive\n\n" : chunk.toString()).getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } finally {
            open.release();
        }
    }

    private static long lastEventId(HttpExchange exchange) {
        String id = exchange.getRequestHeaders().getFirst("Last-Event-ID");
        try {
            return id == null ? 0 : Long.parseLong(id.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
