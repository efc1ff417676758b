# Which caller token belongs to which governed cluster, arranged for the functions (one file per cluster, or one JSON
# value) and checked: the function runtime refuses to start when one token is two clusters' (shared/function-runtime
# CallerClusters and TokenSet), so the plan says so first. The callers turn `shared_tokens` into their own plan error
# (a variable's validation cannot refer to a module it feeds: that is a cycle).

locals {
  # Cluster and function names are not secret; the tokens stay sensitive.
  path_clusters   = sort(nonsensitive(keys(var.path_tokens)))
  bearer_clusters = sort(nonsensitive(keys(var.bearer_tokens)))

  # Each token unmarked on its own: a value marked sensitive inside the maps (not only the variable) would otherwise
  # make the clusters' names in the plan's messages sensitive too. Only compared here, never output.
  path_sets   = { for c in local.path_clusters : c => nonsensitive(toset([for t in values(var.path_tokens[c]) : nonsensitive(t)])) }
  bearer_sets = { for c in local.bearer_clusters : c => nonsensitive(toset([for t in flatten(values(var.bearer_tokens[c])) : nonsensitive(t)])) }

  shared = concat(
    flatten([for i, a in local.path_clusters : [for j, b in local.path_clusters : "${a} and ${b} (path token)"
    if j > i && length(setintersection(local.path_sets[a], local.path_sets[b])) > 0]]),
    flatten([for i, a in local.bearer_clusters : [for j, b in local.bearer_clusters : "${a} and ${b} (bearer token)"
    if j > i && length(setintersection(local.bearer_sets[a], local.bearer_sets[b])) > 0]]),
  )

  functions = sort(distinct(concat(
    flatten([for c in local.path_clusters : nonsensitive(keys(var.path_tokens[c]))]),
    flatten([for c in local.bearer_clusters : nonsensitive(keys(var.bearer_tokens[c]))]),
  )))

  # Per function, the clusters that call it with each kind of token.
  path_clusters_of   = { for f in local.functions : f => [for c in local.path_clusters : c if contains(nonsensitive(keys(var.path_tokens[c])), f)] }
  bearer_clusters_of = { for f in local.functions : f => [for c in local.bearer_clusters : c if nonsensitive(length(try(var.bearer_tokens[c][f], []))) > 0] }

  # The runtime runs every configured check on every call, so a cluster with one kind of token but not the other
  # could never call (CallerClusters.requireEveryKind).
  missing_kind = flatten([for f in local.functions : concat(
    [for c in local.bearer_clusters_of[f] : "${f}: cluster ${c} has no path token" if length(local.path_clusters_of[f]) > 0 && !contains(local.path_clusters_of[f], c)],
    [for c in local.path_clusters_of[f] : "${f}: cluster ${c} has no bearer token" if length(local.bearer_clusters_of[f]) > 0 && !contains(local.bearer_clusters_of[f], c)],
  )])
}
