package dev.tollgate.admission;

import java.util.List;
import java.util.Map;

/** The authenticated user who made the request, as the API server reports it. Never null inside a request. */
public record UserInfo(String username, String uid, List<String> groups, Map<String, List<String>> extra) {

    public UserInfo {
        username = username == null ? "" : username;
        uid = uid == null ? "" : uid;
        groups = groups == null ? List.of() : List.copyOf(groups);
        extra = extra == null ? Map.of() : Map.copyOf(extra);
    }

    public static final UserInfo ANONYMOUS = new UserInfo("", "", List.of(), Map.of());
}
