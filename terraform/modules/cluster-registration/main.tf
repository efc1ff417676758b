# One set of functions, many clusters: per governed cluster, the webhook configurations carrying that cluster's own
# path tokens, and the read-only ServiceAccount and RBAC through which the functions read what that cluster's API
# server would consult (namespaces, params); for the functions' cluster, a Secret with each governed cluster's
# connection (one kubeconfig per cluster, read by shared/cel-admission ClusterContexts from tollgate.clusters.dir).
# Everything is rendered, nothing applied: kubectl apply -f of the YAML outputs, or kubernetes_manifest where the
# hashicorp/kubernetes provider can be installed (the examples' cluster.tf).

module "webhooks" {
  source   = "../webhook-configurations"
  for_each = var.clusters

  catalog             = var.catalog
  kubernetes_version  = each.value.kubernetes_version
  function_urls       = var.function_urls
  default_url         = var.default_url
  functions           = var.functions
  ca_bundle           = var.ca_bundle
  path_tokens         = try(var.path_tokens[each.key], {})
  caller_credentials  = var.caller_credentials
  overrides           = var.overrides
  exceptions          = var.exceptions
  policy_rules        = var.policy_rules
  timing              = var.timing
  excluded_namespaces = each.value.namespace_exclusions ? null : []
  functions_namespace = each.value.namespace_exclusions ? var.functions_namespace : null
}

# Each cluster's path and bearer tokens as the functions read them, and the clusters that share one.
module "tokens" {
  source        = "../caller-tokens"
  path_tokens   = var.path_tokens
  bearer_tokens = { for c, m in var.bearer_tokens : c => { for f, t in m : f => [t] } }
}

locals {
  reader_labels = { "app.kubernetes.io/managed-by" = "tollgate-terraform", "app.kubernetes.io/name" = var.reader_name }

  # The same in every governed cluster: get on namespaces is what a lookup needs (list and watch for an informer),
  # and the params' resources when params live in the cluster.
  rbac = [
    {
      apiVersion = "v1"
      kind       = "Namespace"
      metadata   = { name = var.reader_namespace, labels = merge(local.reader_labels, { "kubernetes.io/metadata.name" = var.reader_namespace }) }
    },
    {
      apiVersion                   = "v1"
      kind                         = "ServiceAccount"
      metadata                     = { name = var.reader_name, namespace = var.reader_namespace, labels = local.reader_labels }
      automountServiceAccountToken = false
    },
    {
      # A long-lived token for the functions outside the cluster (the token controller fills it in).
      apiVersion = "v1"
      kind       = "Secret"
      type       = "kubernetes.io/service-account-token"
      metadata = {
        name        = "${var.reader_name}-token"
        namespace   = var.reader_namespace
        labels      = local.reader_labels
        annotations = { "kubernetes.io/service-account.name" = var.reader_name }
      }
    },
    {
      apiVersion = "rbac.authorization.k8s.io/v1"
      kind       = "ClusterRole"
      metadata   = { name = var.reader_name, labels = local.reader_labels }
      rules = concat(
        [{ apiGroups = [""], resources = ["namespaces"], verbs = ["get", "list", "watch"] }],
        [for p in var.param_resources : { apiGroups = p.api_groups, resources = p.resources, verbs = ["get", "list", "watch"] }]
      )
    },
    {
      apiVersion = "rbac.authorization.k8s.io/v1"
      kind       = "ClusterRoleBinding"
      metadata   = { name = var.reader_name, labels = local.reader_labels }
      roleRef    = { apiGroup = "rbac.authorization.k8s.io", kind = "ClusterRole", name = var.reader_name }
      subjects   = [{ kind = "ServiceAccount", name = var.reader_name, namespace = var.reader_namespace }]
    },
  ]

  connected = sort([for n in keys(var.clusters) : n if contains(nonsensitive(keys(var.reader_tokens)), n)])

  kubeconfigs = {
    for n in local.connected : "${n}.kubeconfig" => yamlencode({
      apiVersion = "v1"
      kind       = "Config"
      clusters = [{ name = n, cluster = merge({ server = var.clusters[n].server },
        var.clusters[n].certificate_authority == null ? {} : { "certificate-authority-data" = base64encode(var.clusters[n].certificate_authority) }
      ) }]
      users           = [{ name = var.reader_name, user = { token = var.reader_tokens[n] } }]
      contexts        = [{ name = n, context = { cluster = n, user = var.reader_name } }]
      current-context = n
    })
  }

  # The API server picks a webhook call's credential from its admission kubeconfig by the URL's host: users named
  # host (port 443) or host:port, exact match first (k8s.io/apiserver pkg/util/webhook/authentication.go,
  # defaultAuthenticationInfoResolver; the host:port it is asked for comes from client.go's HookClient).
  bearer_hosts = {
    for c, m in nonsensitive(var.bearer_tokens) : c => {
      for f in keys(m) : f => trimsuffix(regex("^https://([^/?#]+)", coalesce(lookup(var.function_urls, f, null), var.default_url, "https://-"))[0], ":443")
    }
  }
  # One user per host: functions behind one host (a bundle) must share that cluster's token.
  bearer_host_conflicts = flatten([
    for c, hosts in local.bearer_hosts : [
      for h in distinct(values(hosts)) : "cluster ${c}, ${h}: ${join(", ", sort([for f, fh in hosts : f if fh == h]))}"
      if length(distinct([for f, fh in hosts : nonsensitive(var.bearer_tokens)[c][f] if fh == h])) > 1
    ]
  ])

  admission_kubeconfigs = {
    for c, hosts in local.bearer_hosts : c => yamlencode({
      apiVersion = "v1"
      kind       = "Config"
      users = [for h in sort(distinct(values(hosts))) : {
        name = h
        user = { token = distinct([for f, fh in hosts : var.bearer_tokens[c][f] if fh == h])[0] }
      }]
    })
  }

  admission_configuration = yamlencode({
    apiVersion = "apiserver.config.k8s.io/v1"
    kind       = "AdmissionConfiguration"
    plugins = [for p in ["ValidatingAdmissionWebhook", "MutatingAdmissionWebhook"] : {
      name = p
      configuration = {
        apiVersion     = "apiserver.config.k8s.io/v1"
        kind           = "WebhookAdmissionConfiguration"
        kubeConfigFile = var.admission_kubeconfig_path
      }
    }]
  })

  clusters_secret = {
    apiVersion = "v1"
    kind       = "Secret"
    type       = "Opaque"
    metadata   = { name = var.clusters_secret_name, namespace = var.functions_namespace, labels = local.reader_labels }
    stringData = local.kubeconfigs
  }
}
