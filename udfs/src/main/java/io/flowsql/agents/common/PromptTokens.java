package io.flowsql.agents.common;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/** Counts prompt tokens with a real BPE tokenizer (cl100k) so prompt sizes are logged and tested in the unit models bill. */
public final class PromptTokens {
    private static final Encoding ENCODING = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    private PromptTokens() {}

    public static int count(String text) {
        return text == null || text.isEmpty() ? 0 : ENCODING.countTokensOrdinary(text);
    }
}
