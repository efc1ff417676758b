output "environment" {
  description = "Per service: the environment variables that set its mode (TOLLGATE_ENFORCEMENT_MODE, TOLLGATE_ENFORCEMENT_CLUSTER_MODES; for a service whose functions do not share their modes, also TOLLGATE_ENFORCEMENT_FUNCTION_MODES and TOLLGATE_ENFORCEMENT_FUNCTION_CLUSTER_MODES); empty where everything is enforced."
  value       = local.environment

  precondition {
    condition     = length(local.unknown) == 0
    error_message = "enforcement.functions / function_clusters: ${join(", ", local.unknown)}: not a function deployed here."
  }
}

output "softened" {
  description = "Every setting that softens (warn or audit) => every function it softens (where it applies: a cluster's mode in that cluster). A setting on a cluster or the default mode softens every function of a bundle, Pod Security included: the plan shows which."
  value       = local.softened
}
