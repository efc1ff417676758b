package dev.tollgate.simulator;

import java.util.ArrayList;
import java.util.List;

/** A unified diff of two texts by lines (longest common subsequence), with a few lines of context. */
public final class LineDiff {

    private static final int CONTEXT = 3;

    private LineDiff() {
    }

    /** The diff lines ("@@ ...", " same", "-old", "+new"); empty when the texts are equal. */
    public static List<String> unified(String before, String after) {
        String[] a = before.split("\n", -1);
        String[] b = after.split("\n", -1);
        int n = a.length;
        int m = b.length;
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a[i].equals(b[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        // The edit script: one entry per line, ' ' kept, '-' removed, '+' added; with line numbers in a and b.
        List<char[]> ops = new ArrayList<>();
        List<int[]> pos = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[i].equals(b[j])) {
                ops.add(new char[] { ' ' });
                pos.add(new int[] { i++, j++ });
            } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
                ops.add(new char[] { '+' });
                pos.add(new int[] { i, j++ });
            } else {
                ops.add(new char[] { '-' });
                pos.add(new int[] { i++, j });
            }
        }
        List<String> out = new ArrayList<>();
        int k = 0;
        while (k < ops.size()) {
            if (ops.get(k)[0] == ' ') {
                k++;
                continue;
            }
            int start = Math.max(0, k - CONTEXT);
            int end = k;
            // Extend the hunk while changes are within 2*CONTEXT lines of each other.
            int lastChange = k;
            while (end < ops.size()) {
                if (ops.get(end)[0] != ' ') {
                    lastChange = end;
                } else if (end - lastChange > 2 * CONTEXT) {
                    break;
                }
                end++;
            }
            end = Math.min(ops.size(), lastChange + CONTEXT + 1);
            int aStart = pos.get(start)[0];
            int bStart = pos.get(start)[1];
            int aLen = 0;
            int bLen = 0;
            List<String> body = new ArrayList<>();
            for (int x = start; x < end; x++) {
                char op = ops.get(x)[0];
                int[] p = pos.get(x);
                String line = op == '+' ? b[p[1]] : a[p[0]];
                body.add(op + line);
                if (op != '+') {
                    aLen++;
                }
                if (op != '-') {
                    bLen++;
                }
            }
            out.add("@@ -" + (aStart + 1) + "," + aLen + " +" + (bStart + 1) + "," + bLen + " @@");
            out.addAll(body);
            k = end;
        }
        return out;
    }
}
