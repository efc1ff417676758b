# One Lambda function per Tollgate function, reachable over an HTTPS function URL that becomes its base URL in the
# webhook configurations. The function URL is public (the API server cannot sign AWS requests); the function's own
# path or bearer token check decides who gets an answer.

locals {
  jvm_handler = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest"

  # The same environment on every function: its deadline from the shared budget, its caller check and its
  # enforcement mode; then the function's own.
  environment = {
    for name, f in var.functions : name => merge(
      f.build == "native" ? {
        # Quarkus native on Lambda: let the runtime, not the JVM signal handlers, manage the process.
        DISABLE_SIGNAL_HANDLERS = "true"
        } : {
        # Tiered compilation at level 1 starts the JVM faster, which is what a cold admission call waits for; an
        # OutOfMemoryError ends the process, so Lambda starts a fresh environment instead of reusing a poisoned one.
        JAVA_TOOL_OPTIONS = "-XX:+TieredCompilation -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError"
      },
      { TOLLGATE_DEADLINE_TIMEOUT = "${var.timeouts[name].internal_deadline_ms}ms" },
      # Every governed cluster's tokens for this function, and no other function's: the runtime maps each token to
      # its cluster (shared/function-runtime README, "Which cluster is calling"). JSON, as Lambda mounts no files.
      contains(module.tokens.functions, name) ? { TOLLGATE_AUTH_CLUSTERS_JSON = module.tokens.clusters_json[name] } : {},
      module.enforcement.environment[name],
      # The governed clusters' read-only connections, for the functions that read namespaces and params: the secret
      # and the clusters' names (shared/cel-admission README, "Clusters"); no credential in the environment.
      f.cluster_context && local.connected ? {
        TOLLGATE_CLUSTERS_AWS_SECRET = aws_secretsmanager_secret.clusters[0].arn
        TOLLGATE_CLUSTERS_NAMES      = join(",", sort(nonsensitive(keys(var.cluster_connections))))
      } : {},
      # The exceptions naming the function, applied by it to the requests that reach it (those the cluster's API
      # server cannot except on its version). Lambda mounts nothing beside the package, so they travel as JSON in the
      # environment (shared/function-runtime README, "Exceptions").
      length(local.exceptions_for[name]) == 0 ? {} : {
        TOLLGATE_EXCEPTIONS_JSON = jsonencode({ exceptions = local.exceptions_for[name] })
      },
      f.environment,
    )
  }

  # How many clusters there are is not secret (their kubeconfigs are): it must not hide the whole environment.
  connected = nonsensitive(length(var.cluster_connections)) > 0

  exceptions_for = { for name in keys(var.functions) : name => [for e in var.exceptions : e if contains(e.functions, name)] }

  # AWS Lambda refuses a function whose environment variables (names and values) exceed 4 KB in total
  # (Lambda developer guide, "Working with Lambda environment variables", quotas).
  # The total is not secret, though the tokens it counts are.
  environment_bytes     = { for name, env in local.environment : name => nonsensitive(sum(concat([0], [for k, v in env : length(k) + length(v)]))) }
  oversized_environment = [for name, bytes in local.environment_bytes : "${name} (${bytes} bytes)" if bytes > 4096]

  unauthenticated = [
    for name, f in var.functions : name
    if !contains(module.tokens.functions, name) && lower(lookup(f.environment, "TOLLGATE_AUTH_REQUIRED", "true")) != "false"
  ]
}

# Each cluster's tokens per function as TOLLGATE_AUTH_CLUSTERS_JSON, and the checks the runtime would otherwise make at
# its start (one token, one cluster; every cluster has every kind its function checks), shared with
# cluster-registration.
module "tokens" {
  source        = "../caller-tokens"
  path_tokens   = var.path_tokens
  bearer_tokens = var.bearer_tokens
}

# Each Lambda function serves one function (or one bundle, under its own name): its mode is its own.
module "enforcement" {
  source = "../enforcement"

  enforcement = var.enforcement
  services    = { for name in keys(var.functions) : name => [name] }
}

data "aws_iam_policy_document" "assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "functions" {
  name_prefix        = "${var.name_prefix}fn-"
  assume_role_policy = data.aws_iam_policy_document.assume.json
  tags               = var.tags

  lifecycle {
    precondition {
      condition     = length(local.oversized_environment) == 0
      error_message = "AWS Lambda allows 4 KB of environment variables per function; these need more: ${join(", ", local.oversized_environment)}. Shorten the exceptions listed for them (the exceptions file) or their environment, or serve fewer clusters per function (each cluster's tokens are in TOLLGATE_AUTH_CLUSTERS_JSON)."
    }
    precondition {
      condition     = length(module.tokens.shared_tokens) == 0
      error_message = "A token belongs to one cluster (the function refuses to start otherwise), but these clusters share one: ${join("; ", module.tokens.shared_tokens)}. Give each cluster its own."
    }
    precondition {
      condition     = length(module.tokens.missing_kind) == 0
      error_message = "Every call must pass every check its function makes, so these clusters could never call (the function refuses to start): ${join("; ", module.tokens.missing_kind)}. Give the cluster that kind of token too, or no cluster of that function."
    }
    precondition {
      condition     = !local.connected || var.secrets_extension_layer_arn != null
      error_message = "cluster_connections are read through the AWS Parameters and Secrets Lambda Extension: set secrets_extension_layer_arn to its layer for the functions' region and architecture."
    }
    precondition {
      condition     = length(local.unauthenticated) == 0
      error_message = "A function URL is public, and the function refuses to start without a caller check: give ${join(", ", local.unauthenticated)} a token of some cluster in path_tokens or bearer_tokens (or TOLLGATE_AUTH_REQUIRED=false in its environment if something else authenticates callers)."
    }
  }
}

resource "aws_cloudwatch_log_group" "function" {
  for_each          = var.functions
  name              = "/aws/lambda/${var.name_prefix}${each.key}"
  retention_in_days = var.log_retention_days
  tags              = var.tags
}

# Only what a function does: write its own logs.
data "aws_iam_policy_document" "logs" {
  statement {
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents"]
    resources = [for g in aws_cloudwatch_log_group.function : "${g.arn}:*"]
  }
}

resource "aws_iam_role_policy" "logs" {
  name   = "write-own-logs"
  role   = aws_iam_role.functions.id
  policy = data.aws_iam_policy_document.logs.json
}

# The governed clusters' connections, one secret for all (a JSON object of kubeconfigs by cluster name), readable by
# the functions' role only.
resource "aws_secretsmanager_secret" "clusters" {
  count       = local.connected ? 1 : 0
  name_prefix = "${var.name_prefix}clusters-"
  description = "Tollgate: the governed clusters' read-only kubeconfigs, by cluster name"
  tags        = var.tags
}

resource "aws_secretsmanager_secret_version" "clusters" {
  count         = local.connected ? 1 : 0
  secret_id     = aws_secretsmanager_secret.clusters[0].id
  secret_string = jsonencode(var.cluster_connections)
}

data "aws_iam_policy_document" "clusters" {
  count = local.connected ? 1 : 0
  statement {
    actions   = ["secretsmanager:GetSecretValue"]
    resources = [aws_secretsmanager_secret.clusters[0].arn]
  }
}

resource "aws_iam_role_policy" "clusters" {
  count  = local.connected ? 1 : 0
  name   = "read-cluster-connections"
  role   = aws_iam_role.functions.id
  policy = data.aws_iam_policy_document.clusters[0].json
}

resource "aws_lambda_function" "function" {
  for_each = var.functions

  function_name    = "${var.name_prefix}${each.key}"
  description      = "Tollgate admission function ${each.key} (${each.value.build})"
  role             = aws_iam_role.functions.arn
  filename         = each.value.package_file
  source_code_hash = filebase64sha256(each.value.package_file)
  runtime          = each.value.build == "native" ? "provided.al2023" : var.jvm_runtime
  # The custom runtime runs the zip's bootstrap; the handler name is unused there.
  handler       = each.value.build == "native" ? "bootstrap" : local.jvm_handler
  architectures = [each.value.architecture]
  memory_size   = coalesce(each.value.memory_mb, each.value.build == "native" ? 256 : 1024)
  # The platform's request timeout from the shared budget: never longer than the webhook's timeoutSeconds.
  timeout                        = var.timeouts[each.key].request_timeout_seconds
  reserved_concurrent_executions = each.value.reserved_concurrency == null ? -1 : each.value.reserved_concurrency
  layers                         = each.value.cluster_context && local.connected ? [var.secrets_extension_layer_arn] : []

  environment {
    variables = local.environment[each.key]
  }

  logging_config {
    log_format = "Text"
    log_group  = aws_cloudwatch_log_group.function[each.key].name
  }

  tags       = var.tags
  depends_on = [aws_iam_role_policy.logs, aws_iam_role_policy.clusters, aws_secretsmanager_secret_version.clusters]
}

resource "aws_lambda_function_url" "function" {
  for_each           = var.functions
  function_name      = aws_lambda_function.function[each.key].function_name
  authorization_type = "NONE"
  invoke_mode        = "BUFFERED"
}

resource "aws_lambda_permission" "function_url" {
  for_each               = var.functions
  statement_id           = "PublicFunctionUrl"
  action                 = "lambda:InvokeFunctionUrl"
  function_name          = aws_lambda_function.function[each.key].function_name
  principal              = "*"
  function_url_auth_type = "NONE"
}

resource "aws_lambda_permission" "invoke" {
  for_each      = var.grant_invoke_function ? var.functions : {}
  statement_id  = "PublicInvokeForFunctionUrl"
  action        = "lambda:InvokeFunction"
  function_name = aws_lambda_function.function[each.key].function_name
  principal     = "*"
}
