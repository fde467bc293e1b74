package io.flowsql.journal;

import java.io.Serializable;

/**
 * How a TaskManager opens the stage journal its engine uses; shipped with the engine's configuration
 * (the job module's Kafka journal is one), so the udfs module needs no store client.
 */
@FunctionalInterface
public interface StageJournalSource extends Serializable {

    /** No journal. */
    StageJournalSource NONE = new None();

    StageJournal open();

    /** A named class, so engine configurations without a journal serialize (and compare) equal. */
    final class None implements StageJournalSource {
        private static final long serialVersionUID = 1L;

        @Override
        public StageJournal open() {
            return StageJournal.NONE;
        }

        private Object readResolve() {
            return NONE;
        }
    }
}
