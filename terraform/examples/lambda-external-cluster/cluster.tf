# One governed cluster through the hashicorp/kubernetes provider: the only part that needs it.

terraform {
  required_providers {
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.23, < 4.0"
    }
  }
}

provider "kubernetes" {
  config_path    = var.kubeconfig_path
  config_context = var.kube_context
}

# Server-side apply of one governed cluster's configurations (applied_cluster, reached through kubeconfig_path and
# kube_context). A provider cannot be repeated per cluster with for_each: the other clusters get their
# cluster_manifests_yaml with kubectl, one context each.
resource "kubernetes_manifest" "webhook_configuration" {
  for_each = var.applied_cluster == null ? toset([]) : toset(module.webhooks[var.applied_cluster].manifest_kinds)

  manifest = module.webhooks[var.applied_cluster].manifests[each.key]

  field_manager {
    name = "tollgate-terraform"
  }
}

output "applied" {
  description = "Configurations applied to applied_cluster."
  value       = { for kind, m in kubernetes_manifest.webhook_configuration : kind => nonsensitive(m.manifest.metadata.name) }
}
