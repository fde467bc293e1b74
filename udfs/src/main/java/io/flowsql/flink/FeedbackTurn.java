package io.flowsql.flink;

import io.flowsql.pipeline.DialogueTurn;

/** A finished turn read back from the answers topic, addressed to its dialogue, so the next turn can see it. */
public class FeedbackTurn {
    public String dialogueId;
    public DialogueTurn turn;

    public FeedbackTurn() {}

    public FeedbackTurn(String dialogueId, DialogueTurn turn) {
        this.dialogueId = dialogueId;
        this.turn = turn;
    }
}
