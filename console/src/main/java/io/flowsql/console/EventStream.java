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
 * bounded in all and per session (each holds one of the server's threads, so one session cannot take them all); the
 * stream of a session carries that session's events only.
 */
final class EventStream {
    static final long KEEP_ALIVE_MILLIS = 10_000;
    /** What a refused stream is told to wait before trying again (a closed tab frees its stream within a keep-alive). */
    static final int RETRY_AFTER_SECONDS = 10;

    private final Semaphore open;

    EventStream(int maxOpen) {
        this.open = new Semaphore(maxOpen);
    }

    /** Serves the stream until the browser goes away or the thread is interrupted (the server stopping). */
    void serve(HttpExchange exchange, Session session) throws IOException {
        if (!session.openStream()) {
            throw new HttpIo.Refused(429, "this session holds " + Session.MAX_STREAMS
                    + " open event streams (one per tab); close a tab", RETRY_AFTER_SECONDS);
        }
        if (!open.tryAcquire()) {
            session.closeStream();
            throw new HttpIo.Refused(503, "too many open event streams", RETRY_AFTER_SECONDS);
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
            session.closeStream();
        }
    }

    /** The browser's {@code Last-Event-ID} on a reconnect, else {@code ?after=} (a page opening a new stream). */
    private static long lastEventId(HttpExchange exchange) {
        String id = exchange.getRequestHeaders().getFirst("Last-Event-ID");
        String query = exchange.getRequestURI().getRawQuery();
        if (id == null && query != null && query.startsWith("after=")) {
            id = query.substring("after=".length());
        }
        try {
            return id == null ? 0 : Long.parseLong(id.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
