# The Lambda resources, planned and applied against a mocked AWS provider (no account needed).

mock_provider "aws" {
  mock_resource "aws_lambda_function_url" {
    defaults = {
      function_url = "https://abcdefghijklmnopqrstuvwxyz012345.lambda-url.eu-west-1.on.aws/"
    }
  }
  mock_resource "aws_iam_role" {
    defaults = {
      arn = "arn:aws:iam::123456789012:role/tollgate-fn-0001"
    }
  }
  mock_resource "aws_cloudwatch_log_group" {
    defaults = {
      arn = "arn:aws:logs:eu-west-1:123456789012:log-group:/aws/lambda/tollgate-x"
    }
  }
  mock_data "aws_iam_policy_document" {
    defaults = {
      json = "{\"Version\":\"2012-10-17\",\"Statement\":[]}"
    }
  }
}

variables {
  functions = {
    "require-labels" = {
      package_file = "tests/fixtures/function.zip"
    }
    "always-pull-images" = {
      package_file         = "tests/fixtures/function.zip"
      build                = "jvm"
      memory_mb            = 1536
      architecture         = "arm64"
      reserved_concurrency = 20
      environment          = { QUARKUS_LOG_LEVEL = "DEBUG" }
    }
  }
  timeouts = {
    "require-labels"     = { request_timeout_seconds = 6, internal_deadline_ms = 1000 }
    "always-pull-images" = { request_timeout_seconds = 11, internal_deadline_ms = 6000 }
  }
  # Two governed clusters: require-labels is called with path tokens, always-pull-images with bearer tokens.
  path_tokens = {
    east = { "require-labels" = "east-0123456789abcdef-token" }
    west = { "require-labels" = "west-0123456789abcdef-token" }
  }
  bearer_tokens = {
    east = { "always-pull-images" = ["first-bearer-token-value", "second-bearer-token-value"] }
    west = { "always-pull-images" = ["west-bearer-token-value"] }
  }
}

run "native_function" {
  command = apply

  assert {
    condition     = aws_lambda_function.function["require-labels"].runtime == "provided.al2023" && aws_lambda_function.function["require-labels"].handler == "bootstrap"
    error_message = "native builds run on the provided.al2023 custom runtime"
  }
  assert {
    condition     = aws_lambda_function.function["require-labels"].function_name == "tollgate-require-labels"
    error_message = "name = prefix + function"
  }
  assert {
    condition     = aws_lambda_function.function["require-labels"].timeout == 6
    error_message = "Lambda timeout = the request timeout from the budget"
  }
  assert {
    condition     = aws_lambda_function.function["require-labels"].memory_size == 256 && aws_lambda_function.function["require-labels"].architectures[0] == "x86_64"
    error_message = "native defaults: 256 MB, x86_64"
  }
  assert {
    condition     = aws_lambda_function.function["require-labels"].reserved_concurrent_executions == -1
    error_message = "unreserved concurrency by default"
  }
  assert {
    condition     = aws_lambda_function.function["require-labels"].source_code_hash == filebase64sha256("tests/fixtures/function.zip")
    error_message = "the package's hash, so a new build redeploys"
  }
  assert {
    condition     = nonsensitive(aws_lambda_function.function["require-labels"].environment[0].variables["TOLLGATE_DEADLINE_TIMEOUT"]) == "1000ms"
    error_message = "the internal deadline from the budget"
  }
  assert {
    condition     = jsondecode(nonsensitive(aws_lambda_function.function["require-labels"].environment[0].variables["TOLLGATE_AUTH_CLUSTERS_JSON"])) == { east = { "path-tokens" = ["east-0123456789abcdef-token"] }, west = { "path-tokens" = ["west-0123456789abcdef-token"] } }
    error_message = "each cluster's path token reaches the runtime under the cluster's name (tollgate.auth.clusters-json)"
  }
  assert {
    condition     = nonsensitive(aws_lambda_function.function["require-labels"].environment[0].variables["DISABLE_SIGNAL_HANDLERS"]) == "true"
    error_message = "native on Lambda disables signal handlers"
  }
  assert {
    condition     = length(setintersection(nonsensitive(keys(aws_lambda_function.function["require-labels"].environment[0].variables)), ["TOLLGATE_AUTH_BEARER_VALUES", "TOLLGATE_AUTH_PATH_TOKEN_VALUES"])) == 0
    error_message = "no cluster-less tokens: every token is a cluster's"
  }
  assert {
    condition     = !strcontains(nonsensitive(aws_lambda_function.function["require-labels"].environment[0].variables["TOLLGATE_AUTH_CLUSTERS_JSON"]), "bearer")
    error_message = "no bearer tokens where none are configured, and no other function's tokens"
  }
  assert {
    condition     = aws_lambda_function.function["require-labels"].logging_config[0].log_group == "/aws/lambda/tollgate-require-labels"
    error_message = "logs go to the managed log group"
  }
}

run "jvm_function" {
  command = apply

  assert {
    condition     = aws_lambda_function.function["always-pull-images"].runtime == "java21" && aws_lambda_function.function["always-pull-images"].handler == "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest"
    error_message = "JVM builds use the Java runtime and Quarkus' stream handler"
  }
  assert {
    condition     = aws_lambda_function.function["always-pull-images"].memory_size == 1536 && aws_lambda_function.function["always-pull-images"].architectures[0] == "arm64"
    error_message = "memory and architecture as given"
  }
  assert {
    condition     = aws_lambda_function.function["always-pull-images"].reserved_concurrent_executions == 20
    error_message = "reserved concurrency as given"
  }
  assert {
    condition     = aws_lambda_function.function["always-pull-images"].timeout == 11 && nonsensitive(aws_lambda_function.function["always-pull-images"].environment[0].variables["TOLLGATE_DEADLINE_TIMEOUT"]) == "6000ms"
    error_message = "timeout and deadline of this function"
  }
  assert {
    condition     = jsondecode(nonsensitive(aws_lambda_function.function["always-pull-images"].environment[0].variables["TOLLGATE_AUTH_CLUSTERS_JSON"])) == { east = { "bearer-tokens" = ["first-bearer-token-value", "second-bearer-token-value"] }, west = { "bearer-tokens" = ["west-bearer-token-value"] } }
    error_message = "each cluster's bearer tokens (east's old and new during a rotation), as tollgate.auth.clusters-json reads them"
  }
  assert {
    condition     = nonsensitive(aws_lambda_function.function["always-pull-images"].environment[0].variables["QUARKUS_LOG_LEVEL"]) == "DEBUG" && strcontains(nonsensitive(aws_lambda_function.function["always-pull-images"].environment[0].variables["JAVA_TOOL_OPTIONS"]), "TieredStopAtLevel=1") && strcontains(nonsensitive(aws_lambda_function.function["always-pull-images"].environment[0].variables["JAVA_TOOL_OPTIONS"]), "-XX:+ExitOnOutOfMemoryError")
    error_message = "own environment plus the JVM start-up options"
  }
}

run "public_function_url_and_logs" {
  command = apply

  assert {
    condition     = alltrue([for u in aws_lambda_function_url.function : u.authorization_type == "NONE" && u.invoke_mode == "BUFFERED"])
    error_message = "function URLs without AWS auth (the API server cannot sign requests)"
  }
  assert {
    condition     = alltrue([for p in aws_lambda_permission.function_url : p.action == "lambda:InvokeFunctionUrl" && p.principal == "*" && p.function_url_auth_type == "NONE"])
    error_message = "public InvokeFunctionUrl permission"
  }
  assert {
    condition     = length(aws_lambda_permission.invoke) == 2 && alltrue([for p in aws_lambda_permission.invoke : p.action == "lambda:InvokeFunction"])
    error_message = "InvokeFunction permission for function URLs created since October 2025"
  }
  assert {
    condition     = aws_cloudwatch_log_group.function["always-pull-images"].name == "/aws/lambda/tollgate-always-pull-images" && aws_cloudwatch_log_group.function["always-pull-images"].retention_in_days == 14
    error_message = "one log group per function with retention"
  }
  assert {
    condition     = output.function_urls["require-labels"] == "https://abcdefghijklmnopqrstuvwxyz012345.lambda-url.eu-west-1.on.aws"
    error_message = "function URL without the trailing /, ready to be a base URL"
  }
  assert {
    condition     = jsonencode(sort(keys(output.function_urls))) == jsonencode(["always-pull-images", "require-labels"])
    error_message = "one URL per function"
  }
  assert {
    condition     = output.log_groups["require-labels"] == "/aws/lambda/tollgate-require-labels" && output.function_names["always-pull-images"] == "tollgate-always-pull-images"
    error_message = "names in the outputs"
  }
}

run "invoke_permission_can_be_left_out" {
  command = plan

  variables {
    grant_invoke_function = false
    name_prefix           = "adm-"
    log_retention_days    = 30
  }

  assert {
    condition     = length(aws_lambda_permission.invoke) == 0
    error_message = "no InvokeFunction grant when switched off"
  }
  assert {
    condition     = aws_lambda_function.function["require-labels"].function_name == "adm-require-labels" && aws_cloudwatch_log_group.function["require-labels"].retention_in_days == 30
    error_message = "prefix and retention from the variables"
  }
}

run "opting_out_of_the_caller_check_is_explicit" {
  command = plan

  variables {
    functions     = { "require-labels" = { package_file = "tests/fixtures/function.zip", environment = { TOLLGATE_AUTH_REQUIRED = "false" } } }
    path_tokens   = {}
    bearer_tokens = {}
  }

  assert {
    condition     = length(aws_lambda_function.function) == 1
    error_message = "TOLLGATE_AUTH_REQUIRED=false lets a function run without a token"
  }
}

run "enforcement_modes_in_the_environment" {
  command = plan

  variables {
    enforcement = { mode = "audit", functions = { "require-labels" = "warn" }, clusters = { west = "enforce", east = "audit" } }
  }

  assert {
    condition     = nonsensitive(aws_lambda_function.function["require-labels"].environment[0].variables["TOLLGATE_ENFORCEMENT_MODE"]) == "warn" && nonsensitive(aws_lambda_function.function["always-pull-images"].environment[0].variables["TOLLGATE_ENFORCEMENT_MODE"]) == "audit"
    error_message = "each function's mode: its own, else the default"
  }
  assert {
    condition     = nonsensitive(aws_lambda_function.function["require-labels"].environment[0].variables["TOLLGATE_ENFORCEMENT_CLUSTER_MODES"]) == "east=audit,west=enforce"
    error_message = "the clusters' modes, in name order, as tollgate.enforcement.cluster-modes reads them"
  }
}

run "enforce_everywhere_writes_no_mode" {
  command = plan

  assert {
    condition     = !contains(keys(nonsensitive(aws_lambda_function.function["require-labels"].environment[0].variables)), "TOLLGATE_ENFORCEMENT_MODE")
    error_message = "the default mode is the function's own default: nothing written"
  }
}

run "exceptions_naming_a_function_travel_in_its_environment" {
  command = plan

  variables {
    exceptions = [
      { name = "ci-bot", functions = ["require-labels"], match = { users = ["ci-bot"] }, reason = "CI redeploys", expires = "2099-12-31T00:00:00Z" },
      { name = "legacy", functions = ["require-labels", "always-pull-images"], match = { namespaces = ["legacy"] }, reason = "migrating", expires = "2099-12-31T00:00:00Z" },
    ]
  }

  assert {
    condition     = [for e in jsondecode(nonsensitive(aws_lambda_function.function["require-labels"].environment[0].variables["TOLLGATE_EXCEPTIONS_JSON"])).exceptions : e.name] == ["ci-bot", "legacy"]
    error_message = "require-labels gets both exceptions that name it, as tollgate.exceptions.json reads them"
  }
  assert {
    condition     = jsondecode(nonsensitive(aws_lambda_function.function["always-pull-images"].environment[0].variables["TOLLGATE_EXCEPTIONS_JSON"])).exceptions == [{ name = "legacy", functions = ["require-labels", "always-pull-images"], match = { namespaces = ["legacy"] }, reason = "migrating", expires = "2099-12-31T00:00:00Z" }]
    error_message = "always-pull-images gets only the exception naming it, whole"
  }
}

run "no_exceptions_write_no_variable" {
  command = plan

  assert {
    condition     = !contains(keys(nonsensitive(aws_lambda_function.function["require-labels"].environment[0].variables)), "TOLLGATE_EXCEPTIONS_JSON")
    error_message = "without exceptions nothing is written"
  }
}

run "rejects_exceptions_beyond_lambdas_environment_limit" {
  command = plan

  variables {
    exceptions = [for i in range(40) : { name = "exception-${i}", functions = ["require-labels"], match = { names = ["workload-${i}"] }, reason = "a long enough reason to fill the environment", expires = "2099-12-31T00:00:00Z" }]
  }

  expect_failures = [aws_iam_role.functions]
}

run "rejects_a_function_without_a_caller_check" {
  command = plan

  variables {
    functions     = { "require-labels" = { package_file = "tests/fixtures/function.zip" } }
    path_tokens   = {}
    bearer_tokens = {}
  }

  expect_failures = [aws_iam_role.functions]
}

run "rejects_an_unknown_build" {
  command = plan
  variables {
    functions = { "require-labels" = { package_file = "tests/fixtures/function.zip", build = "graalvm" } }
  }
  expect_failures = [var.functions]
}

run "rejects_a_missing_package" {
  command = plan
  variables {
    functions = { "require-labels" = { package_file = "tests/fixtures/missing.zip" } }
  }
  expect_failures = [var.functions]
}

run "rejects_an_unknown_architecture" {
  command = plan
  variables {
    functions = { "require-labels" = { package_file = "tests/fixtures/function.zip", architecture = "riscv64" } }
  }
  expect_failures = [var.functions]
}

run "rejects_memory_outside_lambda_limits" {
  command = plan
  variables {
    functions = { "require-labels" = { package_file = "tests/fixtures/function.zip", memory_mb = 64 } }
  }
  expect_failures = [var.functions]
}

run "rejects_negative_reserved_concurrency" {
  command = plan
  variables {
    functions = { "require-labels" = { package_file = "tests/fixtures/function.zip", reserved_concurrency = -1 } }
  }
  expect_failures = [var.functions]
}

run "rejects_a_function_without_timeouts" {
  command = plan
  variables {
    timeouts = { "require-labels" = { request_timeout_seconds = 6, internal_deadline_ms = 1000 } }
  }
  expect_failures = [var.timeouts]
}

run "rejects_a_fractional_request_timeout" {
  command = plan
  variables {
    timeouts = {
      "require-labels"     = { request_timeout_seconds = 6.5, internal_deadline_ms = 1000 }
      "always-pull-images" = { request_timeout_seconds = 11, internal_deadline_ms = 6000 }
    }
  }
  expect_failures = [var.timeouts]
}

run "rejects_a_path_token_for_another_function" {
  command = plan
  variables {
    path_tokens = { east = { "cel-policy" = "0123456789abcdef-token" } }
  }
  expect_failures = [var.path_tokens]
}

run "rejects_a_short_path_token" {
  command = plan
  variables {
    path_tokens = { east = { "require-labels" = "short" } }
  }
  expect_failures = [var.path_tokens]
}

run "rejects_a_cluster_name_that_is_not_a_dns_label" {
  command = plan
  variables {
    path_tokens = { East_1 = { "require-labels" = "0123456789abcdef-token" } }
  }
  expect_failures = [var.path_tokens]
}

run "rejects_a_bearer_token_with_a_comma" {
  command = plan
  variables {
    bearer_tokens = { east = { "always-pull-images" = ["first-bearer,token-value"] } }
  }
  expect_failures = [var.bearer_tokens]
}

run "rejects_a_token_given_to_two_clusters" {
  command = plan
  variables {
    path_tokens = {
      east = { "require-labels" = "shared-0123456789abcdef-token" }
      west = { "require-labels" = "shared-0123456789abcdef-token" }
    }
  }
  expect_failures = [aws_iam_role.functions]
}

run "rejects_a_cluster_without_a_kind_of_token_its_function_checks" {
  command = plan
  variables {
    # always-pull-images checks bearer tokens (east's and west's): a path token of east alone would make east's
    # calls need one too, which west's API server never sends.
    path_tokens = {
      east = { "require-labels" = "east-0123456789abcdef-token", "always-pull-images" = "east-api-0123456789abcdef" }
      west = { "require-labels" = "west-0123456789abcdef-token" }
    }
  }
  expect_failures = [aws_iam_role.functions]
}

run "many_clusters_fill_the_environment_too" {
  command = plan
  variables {
    path_tokens = { for i in range(100) : "cluster-${i}" => { "require-labels" = "cluster-${i}-token-0123456789abcdef" } }
  }
  expect_failures = [aws_iam_role.functions]
}

run "rejects_an_unknown_log_retention" {
  command = plan
  variables {
    log_retention_days = 10
  }
  expect_failures = [var.log_retention_days]
}

run "rejects_an_old_jvm_runtime" {
  command = plan
  variables {
    jvm_runtime = "java11"
  }
  expect_failures = [var.jvm_runtime]
}

run "cluster_connections_go_to_one_secret_the_cel_functions_read_through_the_extension" {
  command = apply

  variables {
    functions = {
      "require-labels" = { package_file = "tests/fixtures/function.zip" }
      "cel-policy"     = { package_file = "tests/fixtures/function.zip", cluster_context = true }
    }
    timeouts = {
      "require-labels" = { request_timeout_seconds = 6, internal_deadline_ms = 1000 }
      "cel-policy"     = { request_timeout_seconds = 6, internal_deadline_ms = 1000 }
    }
    path_tokens = {
      east = { "require-labels" = "east-0123456789abcdef-token", "cel-policy" = "east-0123456789abcdef-cel" }
      west = { "require-labels" = "west-0123456789abcdef-token", "cel-policy" = "west-0123456789abcdef-cel" }
    }
    bearer_tokens               = {}
    cluster_connections         = { east = "apiVersion: v1\nkind: Config\n# east\n", west = "apiVersion: v1\nkind: Config\n# west\n" }
    secrets_extension_layer_arn = "arn:aws:lambda:eu-west-1:015030872274:layer:AWS-Parameters-and-Secrets-Lambda-Extension:12"
  }

  assert {
    condition     = jsondecode(nonsensitive(aws_secretsmanager_secret_version.clusters[0].secret_string)) == { east = "apiVersion: v1\nkind: Config\n# east\n", west = "apiVersion: v1\nkind: Config\n# west\n" }
    error_message = "one secret holds every cluster's kubeconfig by name"
  }
  assert {
    condition     = aws_lambda_function.function["cel-policy"].environment[0].variables["TOLLGATE_CLUSTERS_NAMES"] == "east,west" && aws_lambda_function.function["cel-policy"].environment[0].variables["TOLLGATE_CLUSTERS_AWS_SECRET"] == aws_secretsmanager_secret.clusters[0].arn
    error_message = "the CEL function learns the clusters' names and the secret, no credential"
  }
  assert {
    condition     = aws_lambda_function.function["cel-policy"].layers == tolist(["arn:aws:lambda:eu-west-1:015030872274:layer:AWS-Parameters-and-Secrets-Lambda-Extension:12"])
    error_message = "the CEL function runs with the Parameters and Secrets extension"
  }
  assert {
    condition     = !contains(keys(aws_lambda_function.function["require-labels"].environment[0].variables), "TOLLGATE_CLUSTERS_AWS_SECRET") && length(aws_lambda_function.function["require-labels"].layers) == 0
    error_message = "a function without cluster_context neither reads the secret nor carries the layer"
  }
  assert {
    condition     = length(aws_iam_role_policy.clusters) == 1
    error_message = "the functions' role may read the secret"
  }
}

run "cluster_connections_need_the_extension_layer" {
  command = plan

  variables {
    cluster_connections = { east = "apiVersion: v1\nkind: Config\n" }
  }

  expect_failures = [aws_iam_role.functions]
}
