package io.flowsql.console;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Sessions keep their dialogues, answers and events to themselves; ids are unguessable and distinct. */
class SessionsTest {

    @Test
    void aDialogueIsRoutedToTheSessionThatStartedItOnly() throws Exception {
        Sessions sessions = new Sessions(Duration.ofHours(1));
        Session first = sessions.create();
        Session second = sessions.create();
        assertThat(first.id()).hasSize(32).isNotEqualTo(second.id());
        assertThat(sessions.startDialogue(first, "d1", "concert_singer")).isTrue();

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
}
