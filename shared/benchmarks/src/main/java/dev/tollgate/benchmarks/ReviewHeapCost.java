package dev.tollgate.benchmarks;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.AdmissionReview;

/**
 * Heap a review costs per body byte: the decoded tree, then a mutating policy's copy of the object, for review
 * shapes at the limits (the figures behind tollgate.budget.heap-per-body-byte and the token limit). Not a JMH
 * benchmark: it measures retained heap, after full GCs, once per shape.
 *
 * <pre>java -cp shared/benchmarks/target/benchmarks.jar dev.tollgate.benchmarks.ReviewHeapCost</pre>
 */
public final class ReviewHeapCost {

    private ReviewHeapCost() {
    }

    public static void main(String[] args) throws Exception {
        AdmissionCodec codec = new AdmissionCodec(AdmissionLimits.DEFAULTS);
        StringBuilder containers = new StringBuilder("{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[");
        for (int i = 0; containers.length() < 7_000_000; i++) {
            containers.append(i == 0 ? "" : ",").append("{\"name\":\"c").append(i)
                    .append("\",\"image\":\"registry.example.com/team/app:1.2.").append(i)
                    .append("\",\"imagePullPolicy\":\"IfNotPresent\",\"ports\":[{\"containerPort\":8080,")
                    .append("\"protocol\":\"TCP\"}],\"env\":[{\"name\":\"A\",\"value\":\"b\"}],\"resources\":")
                    .append("{\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}}}");
        }
        containers.append("]}}");
        String dense = "{\"a\":[" + "[],".repeat(990_000) + "[]]}";
        String strings = "{\"metadata\":{\"name\":\"p\",\"annotations\":{\"a\":\"" + "x".repeat(2_400_000)
                + "\",\"b\":\"" + "y".repeat(2_400_000) + "\"}},\"spec\":{}}";
        measure(codec, "pod of small containers", containers.toString());
        measure(codec, "2M empty arrays", dense);
        measure(codec, "two 2.4M strings", strings);
    }

    private static void measure(AdmissionCodec codec, String shape, String object) throws Exception {
        byte[] body = review(object).getBytes(StandardCharsets.UTF_8);
        long before = used();
        AdmissionReview review = codec.decode(body);
        long tree = used() - before;
        ObjectNode copy = review.request().object().json().deepCopy();
        long withCopy = used() - before;
        System.out.printf("%-24s body %5.2f MiB  tree %6.1f MiB (%4.1fx)  tree + copy %6.1f MiB (%4.1fx)%s%n",
                shape, body.length / 1048576.0, tree / 1048576.0, tree / (double) body.length,
                withCopy / 1048576.0, withCopy / (double) body.length, copy.isEmpty() ? " (empty)" : "");
    }

    private static String review(String object) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
                + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},\"resource\":{\"group\":\"\","
                + "\"version\":\"v1\",\"resource\":\"pods\"},\"operation\":\"CREATE\",\"userInfo\":{\"username\":"
                + "\"a\"},\"object\":" + object + "}}";
    }

    private static long used() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
