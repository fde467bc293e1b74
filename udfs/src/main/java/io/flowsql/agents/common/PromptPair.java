package io.flowsql.agents.common;

import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ReplySchema;
import io.flowsql.sql.render.TokenCounter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The system and user prompt of one agent step, loaded together from {@code prompts/<base>.system.txt}
 * and {@code .user.txt}; the system prompt's first line names the stage ({@code ### Task: <stage>}),
 * which real models read as a heading and the simulated server uses to pick its responder.
 *
 * <p>Laid out for a server's prefix cache (vLLM automatic prefix caching, llama.cpp {@code cache_prompt}):
 * the stage's fixed system text (instructions, few-shot) comes first, then every user message starts with
 * the same database block ({@code prompts/common/context.user.txt}: database id and schema, closed by
 * {@link #END_OF_SCHEMA}), byte-identical for all questions of a database, and only then the stage's own
 * user text with the question, the history and what differs per call. A stage's user file therefore names
 * neither {@code {{db_id}}} nor {@code {{schema}}}; {@code PromptLayoutTest} checks every pair.
 */
public final class PromptPair {
    private static final Logger LOG = LoggerFactory.getLogger(PromptPair.class);
    private static final String TASK_PREFIX = "### Task:";
    private static final TokenCounter TOKENS = new TokenCounter();
    /** The line that closes the schema in every user prompt (docs/CONVENTIONS.md; the simulator reads up to it). */
    public static final String END_OF_SCHEMA = "-- end of schema --";
    /** The shared, cacheable head of every user prompt. */
    public static final String CONTEXT_RESOURCE = "prompts/common/context.user.txt";
    private static final PromptTemplate CONTEXT = PromptTemplate.load(CONTEXT_RESOURCE);

    private final String base;
    private final String task;
    private final PromptTemplate system;
    private final PromptTemplate user;
    private final ReplySchema reply;

    private PromptPair(String base, PromptTemplate system, PromptTemplate user, ReplySchema reply) {
        this.base = base;
        this.system = system;
        this.user = user;
        this.reply = reply;
        String firstLine = system.text().lines().findFirst().orElse("").trim();
        if (!firstLine.startsWith(TASK_PREFIX) || firstLine.length() == TASK_PREFIX.length()) {
            throw new IllegalArgumentException(
                    "system prompt " + system.source() + " must start with '" + TASK_PREFIX + " <stage name>'");
        }
        this.task = firstLine.substring(TASK_PREFIX.length()).trim();
    }

    /**
     * Loads the pair for a base such as {@code mmsql/detect}, with the stage's reply shape from
     * {@code prompts/<base>.reply.json} when that file exists (a JSON Schema; see {@link ReplySchema}).
     */
    public static PromptPair load(String base) {
        return new PromptPair(base,
                PromptTemplate.load("prompts/" + base + ".system.txt"),
                PromptTemplate.load("prompts/" + base + ".user.txt"),
                ReplySchema.loadOptional(base, "prompts/" + base + ".reply.json").orElse(null));
    }

    /** The declared reply shape, or null when the stage declares none (free text). */
    public ReplySchema reply() {
        return reply;
    }

    /**
     * The stage's request: the rendered messages, the stage name from the system prompt's first line and the
     * declared reply shape (so the client can ask the server for structured output and size max_tokens).
     */
    public ChatRequest request(PromptFields fields) {
        return ChatRequest.of(task, render(fields)).withReply(reply);
    }

    /** The stage name from the system prompt's first line. */
    public String task() {
        return task;
    }

    public String base() {
        return base;
    }

    /** Every placeholder of both files and of the shared database block. */
    public Set<String> placeholders() {
        Set<String> all = new LinkedHashSet<>(system.placeholders());
        all.addAll(CONTEXT.placeholders());
        all.addAll(user.placeholders());
        return all;
    }

    /** The system and user messages, with the prompt's token count logged at debug level. */
    public List<ChatMessage> render(PromptFields fields) {
        String systemText = system.render(fields);
        String userText = userText(fields);
        if (LOG.isDebugEnabled()) {
            LOG.debug("prompt {} rendered: {} tokens", base, TOKENS.count(systemText) + TOKENS.count(userText));
        }
        return List.of(ChatMessage.system(systemText), ChatMessage.user(userText));
    }

    /** Token count of the rendered pair (for tests and budgets). */
    public int tokenCount(PromptFields fields) {
        return TOKENS.count(system.render(fields)) + TOKENS.count(userText(fields));
    }

    /** The stage's own user template (without the shared database block), for layout checks. */
    public PromptTemplate userTemplate() {
        return user;
    }

    private String userText(PromptFields fields) {
        return CONTEXT.render(fields) + user.render(fields);
    }
}
