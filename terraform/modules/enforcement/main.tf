# The enforcement modes as the functions read them (shared/function-runtime, EnforcementModes): one environment per
# service, written into the Knative Services and Lambda functions Terraform configures, so a mode changes without a
# rebuild. Pure: no resources.

locals {
  served = toset(flatten(values(var.services)))

  # Per service, the modes of the functions it serves (the function's own, else the default).
  modes = {
    for s, fns in var.services : s => toset([for f in fns : lookup(var.enforcement.functions, f, var.enforcement.mode)])
  }
  unknown = [for f in setunion(keys(var.enforcement.functions), keys(var.enforcement.function_clusters)) : f if !contains(local.served, f)]

  # Per function, its callers' clusters' modes (tollgate.enforcement.cluster-modes, names in order): the clusters'
  # modes, with the function's own per-cluster modes over them.
  function_cluster_modes = {
    for f in local.served : f => merge(var.enforcement.clusters, lookup(var.enforcement.function_clusters, f, {}))
  }
  cluster_modes = {
    for s, fns in var.services : s => toset([for f in fns : join(",", [for c in sort(keys(local.function_cluster_modes[f])) : "${c}=${local.function_cluster_modes[f][c]}"])])
  }

  # Nothing is written for the default (enforce everywhere), so a function without modes keeps its environment.
  shared_environment = {
    for s, ms in local.modes : s => merge(
      one(ms) == "enforce" ? {} : { TOLLGATE_ENFORCEMENT_MODE = one(ms) },
      one(local.cluster_modes[s]) == "" ? {} : { TOLLGATE_ENFORCEMENT_CLUSTER_MODES = one(local.cluster_modes[s]) },
    ) if length(ms) == 1 && length(local.cluster_modes[s]) == 1
  }
  # A service whose functions (the all-in-one bundle) do not share their modes: the settings themselves, restricted
  # to its functions; the runtime gives each call the first of function_clusters, clusters, functions, mode.
  per_function_environment = {
    for s, fns in var.services : s => merge(
      var.enforcement.mode == "enforce" ? {} : { TOLLGATE_ENFORCEMENT_MODE = var.enforcement.mode },
      length(var.enforcement.clusters) == 0 ? {} : { TOLLGATE_ENFORCEMENT_CLUSTER_MODES = join(",", [for c in sort(keys(var.enforcement.clusters)) : "${c}=${var.enforcement.clusters[c]}"]) },
      length([for f in fns : f if contains(keys(var.enforcement.functions), f)]) == 0 ? {} : { TOLLGATE_ENFORCEMENT_FUNCTION_MODES = join(",", [for f in sort(fns) : "${f}=${var.enforcement.functions[f]}" if contains(keys(var.enforcement.functions), f)]) },
      length(flatten([for f in fns : keys(lookup(var.enforcement.function_clusters, f, {}))])) == 0 ? {} : { TOLLGATE_ENFORCEMENT_FUNCTION_CLUSTER_MODES = join(",", flatten([for f in sort(fns) : [for c in sort(keys(lookup(var.enforcement.function_clusters, f, {}))) : "${f}.${c}=${var.enforcement.function_clusters[f][c]}"]])) },
    ) if !contains(keys(local.shared_environment), s)
  }
  environment = merge(local.shared_environment, local.per_function_environment)

  # Every setting that softens (warn or audit), with every function it softens where it applies: a cluster's mode
  # softens each function that cluster calls unless function_clusters gives it its own there, the default mode each
  # function without a mode of its own.
  softened = merge(
    var.enforcement.mode == "enforce" ? {} : {
      "mode = ${var.enforcement.mode}" = sort([for f in local.served : f if !contains(keys(var.enforcement.functions), f)])
    },
    { for f, m in var.enforcement.functions : "functions.${f} = ${m}" => [f] if m != "enforce" && contains(local.served, f) },
    { for c, m in var.enforcement.clusters : "clusters.${c} = ${m}" => sort([for f in local.served : f if !contains(keys(lookup(var.enforcement.function_clusters, f, {})), c)]) if m != "enforce" },
    merge([for f, cs in var.enforcement.function_clusters : { for c, m in cs : "function_clusters.${f}.${c} = ${m}" => [f] if m != "enforce" && contains(local.served, f) }]...),
  )
}
