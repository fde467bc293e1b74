package io.flowsql.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One browser session: the dialogues it started (each bound to its database) and, in order, the events the page shows
 * (questions asked, answers and dead letters committed for them). Event streams wait here for events past their
 * cursor, so no Kafka thread ever writes to a browser.
 */
final class Session {
    /** Events kept per session; the oldest go first (a page reloaded after that many shows the newest only). */
    static final int MAX_EVENTS = 2_000;
    /** Dialogues one session keeps; starting one more forgets the one used longest ago (no follow-up to it then). */
    static final int MAX_DIALOGUES = 500;
    /** Questions one session may have waiting for their answer or dead letter at once. */
    static final int MAX_IN_FLIGHT = 8;
    /** A question unanswered for this long no longer counts as in flight (its answer may never come). */
    static final long IN_FLIGHT_MILLIS = 10 * 60_000;
    /** Event streams one session may hold open at once (tabs of one browser). */
    static final int MAX_STREAMS = 4;

    /** An event as the stream sends it: its position (the SSE id), its type and its JSON. */
    record Event(long id, String type, String json) {}

    private final String id;
    /** The tenant that opened it (null: none): only that tenant's token may use it. */
    private final String tenant;
    /** In order of last use, so the dialogue used longest ago is the one forgotten. */
    private final LinkedHashMap<String, String> dbByDialogue = new LinkedHashMap<>(16, 0.75f, true);
    /** Requests asked and not yet answered or dead-lettered, with when they were asked (nanos). */
    private final Map<String, Long> inFlight = new LinkedHashMap<>();
    private int streams;
    /** The database of each request whose answer this session received (what a verdict may name). */
    private final Map<String, String> dbByAnsweredRequest = new LinkedHashMap<>();
    private final List<Event> events = new ArrayList<>();
    private long nextEventId = 1;
    private volatile long lastSeenNanos = System.nanoTime();

    Session(String id) {
        this(id, null);
    }

    Session(String id, String tenant) {
        this.id = id;
        this.tenant = tenant;
    }

    String tenant() {
        return tenant;
    }

    String id() {
        return id;
    }

    void touch() {
        lastSeenNanos = System.nanoTime();
    }

    long lastSeenNanos() {
        return lastSeenNanos;
    }

    /** Binds a new dialogue to this session; returns the dialogue forgotten to make room, or null. */
    synchronized String startDialogue(String dialogueId, String dbId) {
        String forgotten = null;
        if (dbByDialogue.size() >= MAX_DIALOGUES) {
            forgotten = dbByDialogue.keySet().iterator().next();
            dbByDialogue.remove(forgotten);
        }
        dbByDialogue.put(dialogueId, dbId);
        return forgotten;
    }

    /** Counts a question as in flight; false when {@link #MAX_IN_FLIGHT} already are. */
    synchronized boolean startQuestion(String requestId) {
        long now = System.nanoTime();
        inFlight.values().removeIf(askedAt -> now - askedAt > TimeUnit.MILLISECONDS.toNanos(IN_FLIGHT_MILLIS));
        if (inFlight.size() >= MAX_IN_FLIGHT) {
            return false;
        }
        inFlight.put(requestId, now);
        return true;
    }

    /** The question's answer or dead letter came, or it was never sent: it is no longer in flight. */
    synchronized void questionDone(String requestId) {
        inFlight.remove(requestId);
    }

    /** Counts an event stream as open; false when {@link #MAX_STREAMS} already are. */
    synchronized boolean openStream() {
        if (streams >= MAX_STREAMS) {
            return false;
        }
        streams++;
        return true;
    }

    synchronized void closeStream() {
        streams--;
    }

    /** The database of one of this session's dialogues, or null when the dialogue is not this session's. */
    synchronized String databaseOf(String dialogueId) {
        return dbByDialogue.get(dialogueId);
    }

    /** Publishes an answer to one of this session's questions; from now on a verdict may name its request. */
    synchronized void publishAnswer(String requestId, String dbId, String json) {
        inFlight.remove(requestId);
        dbByAnsweredRequest.put(requestId, dbId);
        if (dbByAnsweredRequest.size() > MAX_EVENTS) {
            dbByAnsweredRequest.remove(dbByAnsweredRequest.keySet().iterator().next());
        }
        publish("answer", json);
    }

    /** The database of an answer this session received, or null when the request is not one of its answered ones. */
    synchronized String databaseOfAnswer(String requestId) {
        return dbByAnsweredRequest.get(requestId);
    }

    synchronized void publish(String type, String json) {
        events.add(new Event(nextEventId++, type, json));
        if (events.size() > MAX_EVENTS) {
            events.remove(0);
        }
        notifyAll();
    }

    /** The events after {@code afterId}, waiting up to {@code waitMillis} for one when there is none yet. */
    synchronized List<Event> eventsAfter(long afterId, long waitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        while (nextEventId - 1 <= afterId) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return List.of();
            }
            wait(left);
        }
        return events.stream().filter(e -> e.id() > afterId).toList();
    }
}
