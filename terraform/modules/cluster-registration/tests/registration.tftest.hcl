# Two governed clusters served by one set of functions: each cluster's webhook URLs carry its own path token, each
# gets the read-only ServiceAccount and RBAC, and the functions' Secret holds one kubeconfig per connected cluster.

variables {
  catalog = {
    functions = {
      demo = {
        webhooks = [{
          type = "validating"
          path = "/demo"
          webhook = {
            name                    = "demo.tollgate.dev"
            rules                   = [{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["v1"], resources = ["pods"] }]
            sideEffects             = "None"
            admissionReviewVersions = ["v1"]
            timeoutSeconds          = 10
          }
        }]
      }
    }
  }
  function_urls = { demo = "https://demo.functions.example.com" }
  clusters = {
    east = { kubernetes_version = "1.30", server = "https://east.example.com:6443", certificate_authority = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n" }
    west = { kubernetes_version = "1.20", server = "https://west.example.com", namespace_exclusions = false }
  }
  caller_credentials = { demo = "path-token" }
  path_tokens = {
    east = { demo = "east-token-0123456789" }
    west = { demo = "west-token-0123456789" }
  }
  reader_tokens   = { east = "reader-east" }
  param_resources = [{ api_groups = [""], resources = ["configmaps"] }]
}

run "each_cluster_calls_with_its_own_token" {
  command = plan

  assert {
    condition     = nonsensitive(output.cluster_manifests["east"][5].webhooks[0].clientConfig.url) == "https://demo.functions.example.com/east-token-0123456789/demo"
    error_message = "east's configuration carries east's token"
  }
  assert {
    condition     = nonsensitive(output.cluster_manifests["west"][5].webhooks[0].clientConfig.url) == "https://demo.functions.example.com/west-token-0123456789/demo"
    error_message = "west's configuration carries west's token"
  }
  assert {
    condition     = !strcontains(nonsensitive(output.cluster_manifests_yaml["west"]), "east-token")
    error_message = "no cluster's manifests hold another cluster's token"
  }
  assert {
    condition     = !can(nonsensitive(output.cluster_manifests["west"][5].webhooks[0].namespaceSelector)) && length(nonsensitive(output.cluster_manifests["east"][5].webhooks[0].namespaceSelector.matchExpressions)) == 1
    error_message = "each cluster's kubernetes_version applies to its own configuration (1.20: no metadata.name exclusions)"
  }
}

run "each_cluster_gets_the_read_only_service_account_and_rbac" {
  command = plan

  assert {
    condition     = [for m in output.rbac_manifests : m.kind] == ["Namespace", "ServiceAccount", "Secret", "ClusterRole", "ClusterRoleBinding"]
    error_message = "namespace, service account, its token, role and binding"
  }
  assert {
    condition = jsonencode(output.rbac_manifests[3].rules) == jsonencode([
      { apiGroups = [""], resources = ["namespaces"], verbs = ["get", "list", "watch"] },
      { apiGroups = [""], resources = ["configmaps"], verbs = ["get", "list", "watch"] },
    ])
    error_message = "read-only: namespaces and the params' resources"
  }
  assert {
    condition     = jsonencode(output.rbac_manifests[4].subjects) == jsonencode([{ kind = "ServiceAccount", name = "tollgate-reader", namespace = "tollgate" }])
    error_message = "the binding names the service account"
  }
  assert {
    condition     = [for n, m in nonsensitive(output.cluster_manifests) : length(m)] == [6, 6]
    error_message = "both clusters: RBAC then their webhook configurations"
  }
}

run "the_functions_secret_holds_each_connected_clusters_kubeconfig" {
  command = plan

  assert {
    condition     = keys(nonsensitive(output.clusters_secret.stringData)) == ["east.kubeconfig"]
    error_message = "only the cluster with a reader token is connected"
  }
  assert {
    condition     = yamldecode(nonsensitive(output.clusters_secret.stringData["east.kubeconfig"])).clusters[0].cluster == { server = "https://east.example.com:6443", "certificate-authority-data" = base64encode("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n") }
    error_message = "east's kubeconfig: its server and CA"
  }
  assert {
    condition     = yamldecode(nonsensitive(output.clusters_secret.stringData["east.kubeconfig"])).users[0].user.token == "reader-east"
    error_message = "east's kubeconfig: its reader token"
  }
  assert {
    condition     = keys(output.missing_reader_tokens) == ["west"]
    error_message = "west still needs its reader token"
  }
  assert {
    condition     = output.timeouts["demo"].internal_deadline_ms == 4000 && output.timeouts["demo"].request_timeout_seconds == 9
    error_message = "the timeouts of the declared timeoutSeconds, the same for every cluster"
  }
}

run "the_functions_get_one_token_file_per_cluster" {
  command = plan

  assert {
    condition     = nonsensitive(output.path_token_files) == { demo = { "east.path-tokens" = "east-token-0123456789\n", "west.path-tokens" = "west-token-0123456789\n" } }
    error_message = "each cluster's token in a file named for the cluster (tollgate.auth.clusters-dir)"
  }
}

run "refuses_a_token_given_to_two_clusters" {
  command = plan

  variables {
    clusters = {
      east  = { kubernetes_version = "1.30", server = "https://east.example.com" }
      west  = { kubernetes_version = "1.30", server = "https://west.example.com" }
      north = { kubernetes_version = "1.30", server = "https://north.example.com" }
    }
    path_tokens = {
      east  = { demo = "shared-token-0123456789" }
      west  = { demo = "west-token-0123456789" }
      north = { demo = "shared-token-0123456789" }
    }
  }

  expect_failures = [output.path_token_files]
}

run "refuses_a_cluster_without_the_path_token_its_function_requires" {
  command = plan

  variables {
    path_tokens = { east = { demo = "east-token-0123456789" } }
  }

  expect_failures = [var.caller_credentials]
}

run "refuses_a_cluster_name_that_is_not_a_dns_label" {
  command = plan

  variables {
    clusters = { East_1 = { kubernetes_version = "1.30", server = "https://east.example.com" } }
  }

  expect_failures = [var.clusters]
}

run "refuses_tokens_for_unknown_clusters" {
  command = plan

  variables {
    reader_tokens = { north = "x" }
  }

  expect_failures = [var.reader_tokens]
}

run "each_cluster_gets_the_exceptions_its_version_can_apply" {
  command = plan

  variables {
    exceptions = [
      { name = "batch", functions = ["demo"], match = { object_labels = { matchLabels = { team = "batch" } } }, reason = "batch", expires = "2099-12-31T00:00:00Z" },
    ]
  }

  assert {
    condition     = [for c in nonsensitive(output.cluster_manifests["east"][5].webhooks[0].matchConditions) : c.name] == ["exception.tollgate.dev/batch"]
    error_message = "east (1.30): one matchCondition per exception"
  }
  assert {
    condition     = jsonencode(nonsensitive(output.cluster_manifests["west"][5].webhooks[0].objectSelector)) == jsonencode({ matchExpressions = [{ key = "team", operator = "NotIn", values = ["batch"] }] })
    error_message = "west (1.20): the label exception as the objectSelector"
  }
  assert {
    condition     = jsonencode(output.exceptions_compiled) == jsonencode({ east = { "demo.tollgate.dev" = { batch = "matchConditions" } }, west = { "demo.tollgate.dev" = { batch = "objectSelector" } } })
    error_message = "per cluster, how each exception is applied"
  }
  assert {
    condition     = jsonencode(output.exceptions_applied_by_function) == jsonencode({ east = {}, west = {} })
    error_message = "nothing left to the function on either cluster (a user exception on 1.20 is: RegistrationOnKubeApiServersTest)"
  }
}

run "bearer_tokens_go_to_each_api_servers_admission_kubeconfig_and_the_functions_files" {
  command = plan

  variables {
    bearer_tokens = {
      east = { demo = "east-bearer-0123456789" }
      west = { demo = "west-bearer-0123456789" }
    }
  }

  assert {
    condition     = yamldecode(nonsensitive(output.admission_kubeconfigs["east"])).users == [{ name = "demo.functions.example.com", user = { token = "east-bearer-0123456789" } }]
    error_message = "east's API server sends east's token to the function's host (port 443: the host alone)"
  }
  assert {
    condition     = !strcontains(nonsensitive(output.admission_kubeconfigs["west"]), "east-bearer")
    error_message = "no cluster's admission kubeconfig holds another cluster's token"
  }
  assert {
    condition     = nonsensitive(output.bearer_token_files) == { demo = { "east.bearer-tokens" = "east-bearer-0123456789\n", "west.bearer-tokens" = "west-bearer-0123456789\n" } }
    error_message = "the function gets one bearer-token file per cluster"
  }
  assert {
    condition     = [for p in yamldecode(output.admission_configuration_yaml).plugins : p.configuration.kubeConfigFile] == ["/etc/kubernetes/tollgate/admission-kubeconfig.yaml", "/etc/kubernetes/tollgate/admission-kubeconfig.yaml"]
    error_message = "both webhook admission plugins read the admission kubeconfig"
  }
}

run "a_host_with_a_port_other_than_443_is_named_with_it" {
  command = plan

  variables {
    function_urls = { demo = "https://127.0.0.1:8443" }
    bearer_tokens = {
      east = { demo = "east-bearer-0123456789" }
      west = { demo = "west-bearer-0123456789" }
    }
  }

  assert {
    condition     = yamldecode(nonsensitive(output.admission_kubeconfigs["east"])).users[0].name == "127.0.0.1:8443"
    error_message = "the user is named host:port, as the API server looks it up"
  }
}

run "refuses_a_cluster_without_the_bearer_token_its_function_checks" {
  command = plan

  variables {
    bearer_tokens = { east = { demo = "east-bearer-0123456789" } }
  }

  expect_failures = [var.bearer_tokens]
}

run "refuses_a_bearer_token_given_to_two_clusters" {
  command = plan

  variables {
    bearer_tokens = {
      east = { demo = "shared-bearer-0123456789" }
      west = { demo = "shared-bearer-0123456789" }
    }
  }

  expect_failures = [output.bearer_token_files]
}

run "refuses_namespace_exclusions_on_a_cluster_before_1_21_naming_it_and_namespace_exclusions" {
  command = plan

  variables {
    # west as kubectl version prints a 1.20 server, without namespace_exclusions = false
    clusters = merge(var.clusters, { west = { kubernetes_version = "v1.20.2", server = "https://west.example.com" } })
  }

  # The message (cluster west, namespace_exclusions = false) is checked in shared/terraform-tests ValidateTest.
  expect_failures = [var.clusters]
}
