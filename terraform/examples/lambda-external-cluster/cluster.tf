# The external cluster: the only part that needs the hashicorp/kubernetes provider.

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

# Server-side apply of the rendered configurations (modules/cluster-registration renders, for several clusters, the
# same objects plus each cluster's read-only RBAC; this example registers one cluster and applies its objects here).
resource "kubernetes_manifest" "webhook_configuration" {
  for_each = toset(module.webhooks.manifest_kinds)

  manifest = module.webhooks.manifests[each.key]

  field_manager {
    name = "tollgate-terraform"
  }
}

output "applied" {
  description = "Configurations applied to the external cluster."
  value       = { for kind, m in kubernetes_manifest.webhook_configuration : kind => nonsensitive(m.manifest.metadata.name) }
}
