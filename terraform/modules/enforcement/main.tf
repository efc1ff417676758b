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
  unknown = [for f in keys(var.enforcement.functions) : f if !contains(local.served, f)]

  cluster_modes = join(",", [for c in sort(keys(var.enforcement.clusters)) : "${c}=${var.enforcement.clusters[c]}"])

  # Nothing is written for the default (enforce everywhere), so a function without modes keeps its environment.
  environment = {
    for s, ms in local.modes : s => merge(
      one(ms) == "enforce" ? {} : { TOLLGATE_ENFORCEMENT_MODE = one(ms) },
      local.cluster_modes == "" ? {} : { TOLLGATE_ENFORCEMENT_CLUSTER_MODES = local.cluster_modes },
    ) if length(ms) == 1
  }
}
