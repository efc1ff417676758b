output "environment" {
  description = "Per service: the environment variables that set its mode (TOLLGATE_ENFORCEMENT_MODE, TOLLGATE_ENFORCEMENT_CLUSTER_MODES); empty where everything is enforced."
  value       = local.environment

  precondition {
    condition     = length(local.mixed) == 0
    error_message = "enforcement.functions: one service runs these functions and has one mode: ${join("; ", local.mixed)}."
  }
  precondition {
    condition     = length(local.mixed_clusters) == 0
    error_message = "enforcement.function_clusters: one service runs these functions and has one mode per cluster: ${join("; ", local.mixed_clusters)}."
  }
  precondition {
    condition     = length(local.unknown) == 0
    error_message = "enforcement.functions / function_clusters: ${join(", ", local.unknown)}: not a function deployed here."
  }
}
