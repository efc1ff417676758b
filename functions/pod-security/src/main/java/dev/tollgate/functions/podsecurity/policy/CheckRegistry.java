package dev.tollgate.functions.podsecurity.policy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.tollgate.functions.podsecurity.Level;
import dev.tollgate.functions.podsecurity.LevelVersion;

/**
 * Resolves the versioned check data into the list of checks to run for each level and version, once, at
 * construction, as upstream's registry does: for each minor version, every check's revision in force; baseline
 * checks first, then restricted ones, each group sorted by ID (so messages list violations in a stable order);
 * at the restricted level, baseline checks overridden by a restricted revision are dropped. Versions newer than
 * any revision, and {@code latest}, evaluate as the newest revision.
 */
public final class CheckRegistry {

    private static final Step[] NONE = new Step[0];
    private static final CheckRegistry STANDARD = new CheckRegistry(PodSecurityChecks.ALL);

    private record Step(String id, Check.PodCheck check) {
    }

    private final int newestMinor;
    private final Step[][] baseline;
    private final Step[][] restricted;

    public CheckRegistry(List<Check> checks) {
        validate(checks);
        this.newestMinor = checks.stream().flatMap(c -> c.revisions().stream())
                .mapToInt(Check.Revision::sinceMinor).max().orElse(0);
        List<Check> ordered = new ArrayList<>(checks);
        ordered.sort(Comparator.comparing((Check c) -> c.level() == Level.RESTRICTED).thenComparing(Check::id));
        this.baseline = new Step[newestMinor + 1][];
        this.restricted = new Step[newestMinor + 1][];
        for (int minor = 0; minor <= newestMinor; minor++) {
            Set<String> overridden = new HashSet<>();
            for (Check c : ordered) {
                Check.Revision r = c.revisionAt(minor);
                if (c.level() == Level.RESTRICTED && r != null) {
                    overridden.addAll(r.overrides());
                }
            }
            List<Step> base = new ArrayList<>();
            List<Step> strict = new ArrayList<>();
            for (Check c : ordered) {
                Check.Revision r = c.revisionAt(minor);
                if (r == null) {
                    continue;
                }
                Step step = new Step(c.id(), r.check());
                if (c.level() == Level.BASELINE) {
                    base.add(step);
                    if (!overridden.contains(c.id())) {
                        strict.add(step);
                    }
                } else {
                    strict.add(step);
                }
            }
            baseline[minor] = base.toArray(Step[]::new);
            restricted[minor] = strict.toArray(Step[]::new);
        }
    }

    /** The standard checks, as upstream pod-security-admission defines them. */
    public static CheckRegistry standard() {
        return STANDARD;
    }

    /** The newest minor version any check has a revision for; {@code latest} evaluates as this version. */
    public int newestMinor() {
        return newestMinor;
    }

    /** Runs every check of the level at the version; privileged allows everything. */
    public Evaluation evaluate(LevelVersion levelVersion, Pod pod) {
        Step[] steps = steps(levelVersion);
        List<CheckResult> failures = null;
        for (Step step : steps) {
            CheckResult result = step.check().check(pod);
            if (!result.allowed()) {
                if (failures == null) {
                    failures = new ArrayList<>(4);
                }
                failures.add(result);
            }
        }
        return failures == null ? Evaluation.ALLOWED : new Evaluation(failures);
    }

    /** The IDs of the checks run for the level at the version, in the order they run. */
    public List<String> checkIds(LevelVersion levelVersion) {
        List<String> ids = new ArrayList<>();
        for (Step step : steps(levelVersion)) {
            ids.add(step.id());
        }
        return ids;
    }

    private Step[] steps(LevelVersion levelVersion) {
        int minor = levelVersion.version().effectiveMinor(newestMinor);
        return switch (levelVersion.level()) {
            case PRIVILEGED -> NONE;
            case BASELINE -> baseline[minor];
            case RESTRICTED -> restricted[minor];
        };
    }

    private static void validate(List<Check> checks) {
        Map<String, Check> byId = new TreeMap<>();
        for (Check c : checks) {
            if (byId.put(c.id(), c) != null) {
                throw new IllegalArgumentException("two checks have the ID " + c.id());
            }
        }
        for (Check c : checks) {
            for (Check.Revision r : c.revisions()) {
                for (String id : r.overrides()) {
                    Check target = byId.get(id);
                    if (target == null || target.level() != Level.BASELINE) {
                        throw new IllegalArgumentException("check " + c.id() + " overrides " + id
                                + ", which is not a baseline check");
                    }
                }
            }
        }
    }
}
