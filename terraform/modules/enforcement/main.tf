# The enforcement modes as the functions read them (shared/function-runtime, EnforcementModes): one environment per
# service, written into the Knative Services and Lambda functions Terraform configures, so a mode changes without a
# rebuild. Pure: no resources.

locals {
  served = toset(flatten(values(var.services)))

  # Per service, the modes of the functions it serves (the function's own, else the default).
  modes = {
    for s, fns in var.services : s => toset([for f in fns : lookup(var.enforcement.functions, f, var.enforcement.mode)])
  }
  mixed   = [for s, ms in local.modes : "${s} (${join(", ", [for f in var.services[s] : "${f} = ${lookup(var.enforcement.functions, f, var.enforcement.mode)}"])})" if length(ms) > 1]
  unknown = [for f in setunion(keys(var.enforcement.functions), keys(var.enforcement.function_clusters)) : f if !contains(local.served, f)]

  # Per function, its callers' clusters' modes (tollgate.enforcement.cluster-modes, names in order): the clusters'
  # modes, with the function's own per-cluster modes over them.
  function_cluster_modes = {
    for f in local.served : f => merge(var.enforcement.clusters, lookup(var.enforcement.function_clusters, f, {}))
  }
  cluster_modes = {
    for s, fns in var.services : s => toset([for f in fns : join(",", [for c in sort(keys(local.function_cluster_modes[f])) : "${c}=${local.function_cluster_modes[f][c]}"])])
  }
  mixed_clusters = [for s, cms in local.cluster_modes : "${s} (${join("; ", [for f in var.services[s] : "${f}: ${join(",", [for c in sort(keys(local.function_cluster_modes[f])) : "${c}=${local.function_cluster_modes[f][c]}"])}"])})" if length(cms) > 1]

  # Nothing is written for the default (enforce everywhere), so a function without modes keeps its environment.
  environment = {
    for s, ms in local.modes : s => merge(
      one(ms) == "enforce" ? {} : { TOLLGATE_ENFORCEMENT_MODE = one(ms) },
      one(local.cluster_modes[s]) == "" ? {} : { TOLLGATE_ENFORCEMENT_CLUSTER_MODES = one(local.cluster_modes[s]) },
    ) if length(ms) == 1 && length(local.cluster_modes[s]) == 1
  }
}
