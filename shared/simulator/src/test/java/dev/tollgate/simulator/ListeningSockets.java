package dev.tollgate.simulator;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The TCP sockets a process listens on, from Linux's /proc: its open file descriptors name socket inodes, and
 * /proc/net/tcp and tcp6 give each listening socket's local address (state 0A). Empty where /proc is not there.
 */
final class ListeningSockets {

    private ListeningSockets() {
    }

    /**
     * host:port of every TCP socket {@code pid} listens on now (IPv4, also when mapped into IPv6, as 127.0.0.1; IPv6
     * in brackets, each group of four hex digits written out).
     */
    static Set<String> of(long pid) {
        Map<String, String> listening = new HashMap<>();
        read(Path.of("/proc/net/tcp"), false, listening);
        read(Path.of("/proc/net/tcp6"), true, listening);
        Set<String> out = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        String address = listening.get(target.substring(8, target.length() - 1));
                        if (address != null) {
                            out.add(address);
                        }
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            // the process has exited
        }
        return out;
    }

    private static void read(Path table, boolean v6, Map<String, String> listening) {
        List<String> lines;
        try {
            lines = Files.readAllLines(table);
        } catch (IOException e) {
            return;
        }
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 10 || !f[3].equals("0A")) {
                continue;
            }
            String[] local = f[1].split(":");
            listening.put(f[9], host(local[0], v6) + ":" + Integer.parseInt(local[1], 16));
        }
    }

    /** /proc writes addresses as 32-bit words in host (little-endian) order. */
    private static String host(String hex, boolean v6) {
        if (!v6) {
            long a = Long.parseLong(hex, 16);
            return (a & 0xff) + "." + (a >> 8 & 0xff) + "." + (a >> 16 & 0xff) + "." + (a >> 24 & 0xff);
        }
        StringBuilder sb = new StringBuilder("[");
        for (int word = 0; word < 4; word++) {
            String w = hex.substring(word * 8, word * 8 + 8);
            for (int b = 3; b >= 0; b--) {
                sb.append(w, b * 2, b * 2 + 2);
                if (b % 2 == 0 && !(word == 3 && b == 0)) {
                    sb.append(':');
                }
            }
        }
        String v6Address = sb.append(']').toString().toLowerCase(java.util.Locale.ROOT);
        String mapped = "[0000:0000:0000:0000:0000:ffff:";
        if (v6Address.startsWith(mapped)) { // an IPv4 address on a dual-stack socket, e.g. ::ffff:127.0.0.1
            long a = Long.parseLong(v6Address.substring(mapped.length(), v6Address.length() - 1).replace(":", ""), 16);
            return (a >> 24 & 0xff) + "." + (a >> 16 & 0xff) + "." + (a >> 8 & 0xff) + "." + (a & 0xff);
        }
        return v6Address;
    }
}
