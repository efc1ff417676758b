package dev.tollgate.knative;

/**
 * A container image reference split into repository, tag and digest, so the deployer can point a manifest's
 * placeholder image ({@code ghcr.io/tollgate/<name>:<version>}) at the user's registry and release tag.
 */
public record ImageRef(String repository, String tag, String digest) {

    public static ImageRef parse(String image) {
        if (image == null || image.isBlank()) {
            throw new IllegalArgumentException("empty image reference");
        }
        String rest = image;
        String digest = null;
        int at = rest.indexOf('@');
        if (at >= 0) {
            digest = rest.substring(at + 1);
            rest = rest.substring(0, at);
        }
        String tag = null;
        int colon = rest.lastIndexOf(':');
        if (colon > rest.lastIndexOf('/')) {
            tag = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
        }
        if (rest.isEmpty() || (tag != null && tag.isEmpty())) {
            throw new IllegalArgumentException("'" + image + "' is not an image reference");
        }
        return new ImageRef(rest, tag, digest);
    }

    /** The same image name under another registry/organisation prefix, e.g. {@code registry.example.com/team}. */
    public ImageRef withRegistry(String prefix) {
        String base = repository.substring(repository.lastIndexOf('/') + 1);
        String p = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        return new ImageRef(p + "/" + base, tag, digest);
    }

    /** Another tag; a pinned digest would contradict it, so it is dropped. */
    public ImageRef withTag(String newTag) {
        if (newTag.isBlank() || newTag.contains("/") || newTag.contains(":") || newTag.contains("@")) {
            throw new IllegalArgumentException("'" + newTag + "' is not a tag");
        }
        return new ImageRef(repository, newTag, null);
    }

    @Override
    public String toString() {
        return repository + (tag == null ? "" : ":" + tag) + (digest == null ? "" : "@" + digest);
    }
}
