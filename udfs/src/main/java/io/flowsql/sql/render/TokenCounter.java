package io.flowsql.sql.render;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.concurrent.atomic.LongAdder;

/** Counts tokens as OpenAI's cl100k_base tokenizer does (jtokkit), so budgets use real token counts. */
public final class TokenCounter {

    private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    private final LongAdder texts = new LongAdder();

    public int count(String text) {
        texts.increment();
        return CL100K.countTokensOrdinary(text);
    }

    /** The text with its token count, counted only when asked ({@link RenderedSchema#tokens}). */
    public RenderedSchema measure(String text) {
        return new RenderedSchema(text, this);
    }

    /** How many texts this counter has counted (each a pass of the tokenizer). */
    public long textsCounted() {
        return texts.sum();
    }
}
