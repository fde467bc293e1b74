package io.flowsql.llm;

import io.flowsql.config.llm.StructuredOutput;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/**
 * Turns a {@link ChatRequest} into the OpenAI chat-completions JSON body; unset fields are left out. A
 * request's reply schema is sent as the configured {@link StructuredOutput} says.
 */
final class ChatWireEncoder {
    private final ObjectMapper json;
    private final StructuredOutput structured;
    /** Laid over each reply schema before it is sent; null for none. */
    private final ReplyOverlay overlay;

    ChatWireEncoder(ObjectMapper json, StructuredOutput structured) {
        this(json, structured, null);
    }

    ChatWireEncoder(ObjectMapper json, StructuredOutput structured, ReplyOverlay overlay) {
        this.json = json;
        this.structured = structured;
        this.overlay = overlay;
    }

    /** The canonical body for a request whose model is already resolved (also the cache's key material). */
    ObjectNode toJson(ChatRequest request) {
        ObjectNode body = json.createObjectNode();
        body.put("model", request.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage message : request.messages()) {
            messages.addObject().put("role", message.role()).put("content", message.content());
        }
        if (request.temperature() != null) {
            body.put("temperature", request.temperature());
        }
        if (request.topP() != null) {
            body.put("top_p", request.topP());
        }
        if (request.n() != null && request.n() > 1) {
            body.put("n", request.n());
        }
        if (request.maxTokens() != null) {
            body.put("max_tokens", request.maxTokens());
        }
        if (request.seed() != null) {
            body.put("seed", request.seed());
        }
        if (!request.stop().isEmpty()) {
            ArrayNode stop = body.putArray("stop");
            request.stop().forEach(stop::add);
        }
        if (request.reply() != null && structured != StructuredOutput.NONE) {
            putReplyFormat(body, request.reply());
        } else if (request.jsonResponse()) {
            body.putObject("response_format").put("type", "json_object");
        }
        return body;
    }

    private void putReplyFormat(ObjectNode body, ReplySchema declared) {
        ReplySchema reply = overlay == null ? declared : overlay.apply(declared);
        switch (structured) {
            case GRAMMAR -> body.put("grammar", SchemaGrammar.of(reply.wireSchema()));
            case JSON_OBJECT -> body.putObject("response_format").put("type", "json_object");
            default -> {
                ObjectNode format = body.putObject("response_format").put("type", "json_schema");
                format.putObject("json_schema").put("name", reply.name()).put("strict", true)
                        .set("schema", reply.wireSchema());
            }
        }
    }

    byte[] encode(ChatRequest request) {
        try {
            return json.writeValueAsBytes(toJson(request));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
