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

module "cluster" {
  source = "../../modules/cluster-registration"

  manifests      = module.webhooks.manifests
  manifest_kinds = module.webhooks.manifest_kinds
}

output "applied" {
  description = "Configurations applied to the external cluster."
  value       = module.cluster.applied
}
