package io.flowsql.sql.render;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/** Counts tokens as OpenAI's cl100k_base tokenizer does (jtokkit), so budgets use real token counts. */
public final class TokenCounter {

    private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    public int count(String text) {
        return CL100K.countTokensOrdinary(text);
    }

    public RenderedSchema measure(String text) {
        return new RenderedSchema(text, count(text));
    }
}
