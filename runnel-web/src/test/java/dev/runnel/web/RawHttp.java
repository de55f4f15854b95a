package dev.runnel.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 written by hand on a socket, so that a test sends exactly the headers a browser or an
 * attacker would, Host included (the JDK's HTTP client sets Host itself), and reads the reply as sent.
 */
final class RawHttp {
    /** A reply: its status, its headers (names lower-case) and its body. */
    record Reply(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() {}

    /** {@code headers} as given, in order, each "Name: value"; a null Host sends none. */
    static Reply send(int port, String method, String target, Map<String, String> headers, String body) throws IOException {
        StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        headers.forEach((k, v) -> request.append(k).append(": ").append(v).append("\r\n"));
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            request.append("Content-Length: ").append(content.length).append("\r\n");
        }
        request.append("Connection: close\r\n\r\n");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            return parse(socket.getInputStream().readAllBytes());
        }
    }

    /** A GET naming {@code host} (null for none). */
    static Reply get(int port, String target, String host) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        if (host != null) {
            headers.put("Host", host);
        }
        return send(port, "GET", target, headers, null);
    }

    private static Reply parse(byte[] bytes) throws IOException {
        String all = new String(bytes, StandardCharsets.ISO_8859_1);
        int end = all.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete reply: '" + all + "'");
        }
        String[] lines = all.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        byte[] raw = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            raw = unchunk(raw);
        }
        return new Reply(status, headers, new String(raw, StandardCharsets.UTF_8));
    }

    private static byte[] unchunk(byte[] raw) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = new java.io.ByteArrayInputStream(raw);
        while (true) {
            StringBuilder size = new StringBuilder();
            int c;
            while ((c = in.read()) != '\n') {
                if (c < 0) {
                    throw new IOException("a chunk without its size");
                }
                if (c != '\r') {
                    size.append((char) c);
                }
            }
            int n = Integer.parseInt(size.toString().split(";")[0].strip(), 16);
            if (n == 0) {
                return out.toByteArray();
            }
            out.write(in.readNBytes(n));
            in.readNBytes(2);
        }
    }
}
