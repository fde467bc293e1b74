package io.flowsql.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.List;

/**
 * Counts tokens with a real tokenizer (cl100k_base) when a server reports no usage, so budgets and
 * metrics still mean something; results are marked estimated.
 */
public final class TokenEstimator {
    private static final int TOKENS_PER_MESSAGE = 3;
    private static final int TOKENS_PER_REPLY = 3;
    private final Encoding encoding = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    public int countText(String text) {
        return encoding.countTokensOrdinary(text);
    }

    /** Prompt tokens as OpenAI counts chat messages: content plus a few tokens of framing per message. */
    public int countMessages(List<ChatMessage> messages) {
        int total = TOKENS_PER_REPLY;
        for (ChatMessage message : messages) {
            total += TOKENS_PER_MESSAGE + countText(message.role()) + countText(message.content());
        }
        return total;
    }

    public TokenUsage estimate(List<ChatMessage> messages, List<String> choices) {
        int completion = choices.stream().mapToInt(this::countText).sum();
        return new TokenUsage(countMessages(messages), completion, true);
    }
}
