package io.flowsql.console;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sessions keep their dialogues, answers and events to themselves; ids are unguessable and distinct. */
class SessionsTest {

    @Test
    void aDialogueIsRoutedToTheSessionThatStartedItOnly() throws Exception {
        Sessions sessions = new Sessions(Duration.ofHours(1));
        Session first = sessions.create();
        Session second = sessions.create();
        assertThat(first.id()).hasSize(32).isNotEqualTo(second.id());
        sessions.startDialogue(first, "d1", "concert_singer");

        assertThat(sessions.ownerOf("d1")).containsSame(first);
        assertThat(sessions.ownerOf("d2")).isEmpty();
        assertThat(second.databaseOf("d1")).isNull();
        first.publishAnswer("r1", "concert_singer", "{\"request_id\":\"r1\"}");
        assertThat(first.databaseOfAnswer("r1")).isEqualTo("concert_singer");
        assertThat(second.databaseOfAnswer("r1")).isNull();
        assertThat(first.eventsAfter(0, 0)).extracting(Session.Event::type).containsExactly("answer");
        assertThat(second.eventsAfter(0, 50)).isEmpty();
    }

    @Test
    void aStreamWaitsForTheNextEventAndResumesAfterItsCursor() throws Exception {
        Session session = new Sessions(Duration.ofHours(1)).create();
        session.publish("question", "{}");
        Thread later = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            session.publish("answer", "{\"n\":2}");
        });
        later.start();
        assertThat(session.eventsAfter(1, 30_000)).extracting(Session.Event::id, Session.Event::json)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(2L, "{\"n\":2}"));
        later.join();
    }

    @Test
    void idleSessionsAreForgottenWithTheirDialogues() throws Exception {
        Sessions sessions = new Sessions(Duration.ZERO);
        Session old = sessions.create();
        sessions.startDialogue(old, "d1", "pets_1");
        Thread.sleep(2);
        sessions.create();
        assertThat(sessions.find(old.id())).isEmpty();
        assertThat(sessions.ownerOf("d1")).isEmpty();
    }

    @Test
    void aSessionAtItsDialogueCapForgetsTheOneUsedLongestAgoAndIsNeverStuck() {
        Sessions sessions = new Sessions(Duration.ofHours(1));
        Session session = sessions.create();
        for (int i = 0; i < Session.MAX_DIALOGUES; i++) {
            sessions.startDialogue(session, "d" + i, "pets_1");
        }
        session.databaseOf("d0");   // used again: d1 is now the one used longest ago
        sessions.startDialogue(session, "one-more", "pets_1");
        assertThat(session.databaseOf("one-more")).isEqualTo("pets_1");
        assertThat(session.databaseOf("d1")).as("forgotten").isNull();
        assertThat(sessions.ownerOf("d1")).isEmpty();
        assertThat(session.databaseOf("d0")).isEqualTo("pets_1");
        assertThat(sessions.ownerOf("d0")).containsSame(session);
    }

    @Test
    void questionsInFlightAndStreamsAreCappedPerSessionAndFreedByTheirEnd() {
        Session session = new Sessions(Duration.ofHours(1)).create();
        for (int i = 0; i < Session.MAX_IN_FLIGHT; i++) {
            assertThat(session.startQuestion("r" + i)).isTrue();
        }
        assertThat(session.startQuestion("one-more")).isFalse();
        session.publishAnswer("r0", "pets_1", "{}");
        assertThat(session.startQuestion("one-more")).as("an answer frees its place").isTrue();
        assertThat(session.startQuestion("and-another")).isFalse();
        session.questionDone("r1");
        assertThat(session.startQuestion("and-another")).as("a dead letter frees its place").isTrue();

        for (int i = 0; i < Session.MAX_STREAMS; i++) {
            assertThat(session.openStream()).isTrue();
        }
        assertThat(session.openStream()).isFalse();
        session.closeStream();
        assertThat(session.openStream()).isTrue();
    }

    @Test
    void newSessionsAreRefusedWhileEveryKeptOneWasSeenInTheLastMinute() {
        Sessions sessions = new Sessions(Duration.ofHours(1));
        for (int i = 0; i < Sessions.MAX_SESSIONS; i++) {
            sessions.create();
        }
        assertThatThrownBy(sessions::create).isInstanceOfSatisfying(HttpIo.Refused.class, e -> {
            assertThat(e.status).isEqualTo(429);
            assertThat(e.retryAfterSeconds).isEqualTo(60);
        });
        assertThat(sessions.size()).isEqualTo(Sessions.MAX_SESSIONS);
    }
}
