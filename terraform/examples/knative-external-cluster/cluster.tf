# The functions' cluster, where the Knative Services run: applies the clusters Secret and the Services with the
# hashicorp/kubernetes provider (the only part that needs it). The governed clusters get their manifests with kubectl
# (cluster_manifests_yaml), one context each: a provider cannot be repeated per cluster with for_each.

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

resource "kubernetes_manifest" "clusters_secret" {
  manifest = module.registration.clusters_secret

  field_manager {
    name = "tollgate-terraform"
  }
}

resource "kubernetes_manifest" "callers_secret" {
  for_each = local.token_services # the names only: the Secrets' values are sensitive

  manifest = local.callers_secrets[each.key]

  field_manager {
    name = "tollgate-terraform"
  }
}

resource "kubernetes_manifest" "knative_service" {
  for_each = local.knative_services

  manifest   = each.value
  depends_on = [kubernetes_manifest.clusters_secret, kubernetes_manifest.callers_secret] # mounted by the Services

  field_manager {
    name            = "tollgate-terraform"
    force_conflicts = true # the Services were first applied with kubectl (knative/<name>.yaml)
  }
}
