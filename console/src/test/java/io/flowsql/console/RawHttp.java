package io.flowsql.console;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** HTTP/1.1 written by hand over a socket, so a test controls every header (Host, Origin) and how a body arrives. */
final class RawHttp {
    private RawHttp() {}

    /** A reply: its status, its header block and its body. */
    record Reply(int status, String headers, String body) {
        String cookie(String name) {
            return header("set-cookie: " + name + "=([^;]+)");
        }

        /** The value of the first header matching {@code pattern} (case-insensitive; group 1), or null. */
        String header(String pattern) {
            Matcher m = Pattern.compile("(?im)^" + pattern).matcher(headers);
            return m.find() ? m.group(1).trim() : null;
        }
    }

    static String host(URI console) {
        return "127.0.0.1:" + console.getPort();
    }

    /** The request head, {@code Connection: close} and a Content-Length for {@code contentLength} bytes. */
    static byte[] head(String method, String path, String host, Map<String, String> headers, long contentLength) {
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n");
        headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        head.append("Content-Length: ").append(contentLength).append("\r\n\r\n");
        return head.toString().getBytes(StandardCharsets.UTF_8);
    }

    static Reply request(URI console, String method, String path, String host, Map<String, String> headers, String body)
            throws IOException {
        try (Socket socket = new Socket(console.getHost(), console.getPort())) {
            socket.setSoTimeout(60_000);
            byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(head(method, path, host, headers, content.length));
            out.write(content);
            out.flush();
            return parse(new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** The reply's head (status line and headers) as read from a connection that stays open (an event stream). */
    static Reply readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.UTF_8).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed within the reply's head: " + head.toString(StandardCharsets.UTF_8));
            }
            head.write(b);
        }
        return parse(head.toString(StandardCharsets.UTF_8));
    }

    private static Reply parse(String text) {
        int split = text.indexOf("\r\n\r\n");
        return new Reply(Integer.parseInt(text.substring(9, 12)), text.substring(0, split), text.substring(split + 4));
    }
}
