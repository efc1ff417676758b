output "shared_tokens" {
  description = "The clusters that share a token, one entry per pair and kind (\"east and west (path token)\"), never the token; empty when each token is one cluster's. A caller fails its plan unless it is empty."
  value       = local.shared
}

output "missing_kind" {
  description = "Per function, the clusters that have one kind of token (path or bearer) when other clusters of that function have both: such a cluster could never call, and the function refuses to start (\"require-labels: cluster west has no bearer token\")."
  value       = local.missing_kind
}

output "functions" {
  description = "The functions that some cluster has a token for."
  value       = local.functions
}

output "path_token_files" {
  description = "Per function, one token file per cluster that has a path token for it (<cluster>.path-tokens => the token and a newline): the files tollgate.auth.clusters-dir reads."
  value = {
    for f in local.functions : f => {
      for c in local.path_clusters_of[f] : "${c}.path-tokens" => "${var.path_tokens[c][f]}\n"
    } if length(local.path_clusters_of[f]) > 0
  }
  sensitive = true
}

output "bearer_token_files" {
  description = "Per function, one token file per cluster that has bearer tokens for it (<cluster>.bearer-tokens => its tokens, one per line): read from tollgate.auth.clusters-dir beside the path-token files."
  value = {
    for f in local.functions : f => {
      for c in local.bearer_clusters_of[f] : "${c}.bearer-tokens" => join("", [for t in var.bearer_tokens[c][f] : "${t}\n"])
    } if length(local.bearer_clusters_of[f]) > 0
  }
  sensitive = true
}

output "clusters_json" {
  description = "Per function, its tokens of every cluster as the one JSON value tollgate.auth.clusters-json reads ({\"east\":{\"path-tokens\":[...],\"bearer-tokens\":[...]}}): for platforms that mount no files (AWS Lambda, TOLLGATE_AUTH_CLUSTERS_JSON)."
  value = {
    for f in local.functions : f => jsonencode({
      for c in sort(distinct(concat(local.path_clusters_of[f], local.bearer_clusters_of[f]))) : c => merge(
        contains(local.path_clusters_of[f], c) ? { "path-tokens" = [var.path_tokens[c][f]] } : {},
        contains(local.bearer_clusters_of[f], c) ? { "bearer-tokens" = var.bearer_tokens[c][f] } : {},
      )
    })
  }
  sensitive = true
}
