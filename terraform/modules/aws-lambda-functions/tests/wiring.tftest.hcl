# Lambda URLs -> each governed cluster's webhook configurations -> timeouts -> Lambda functions, with the committed
# catalog.

mock_provider "aws" {
  mock_resource "aws_lambda_function_url" {
    defaults = {
      function_url = "https://fn0123456789abcdefghijklmnopqrs.lambda-url.eu-west-1.on.aws/"
    }
  }
  mock_resource "aws_iam_role" {
    defaults = {
      arn = "arn:aws:iam::123456789012:role/tollgate-fn-0001"
    }
  }
  mock_data "aws_iam_policy_document" {
    defaults = {
      json = "{\"Version\":\"2012-10-17\",\"Statement\":[]}"
    }
  }
}

run "lambda_urls_and_timeouts_flow_both_ways" {
  command = apply

  module {
    source = "./tests/wiring"
  }

  providers = {
    aws = aws
  }

  variables {
    package_file = "tests/fixtures/function.zip"
    token_suffix = "wiring-test-token"
  }

  assert {
    condition     = alltrue(flatten([for cluster, m in output.manifests : [for kind, c in m : [for w in c.webhooks : startswith(nonsensitive(w.clientConfig.url), "https://fn0123456789abcdefghijklmnopqrs.lambda-url.eu-west-1.on.aws/")]]]))
    error_message = "every webhook of every cluster calls its Lambda function URL"
  }
  assert {
    condition     = alltrue(flatten([for cluster, m in output.manifests : [for kind, c in m : [for w in c.webhooks : startswith(nonsensitive(w.clientConfig.url), "https://fn0123456789abcdefghijklmnopqrs.lambda-url.eu-west-1.on.aws/${cluster}-") && strcontains(nonsensitive(w.clientConfig.url), "-wiring-test-token/")]]]))
    error_message = "with that cluster's own path token as the first segment"
  }
  assert {
    condition     = length(output.manifests) == 2
    error_message = "two governed clusters"
  }
  assert {
    condition     = alltrue([for f, t in output.timeouts : t.webhook_timeout_seconds == 10 && t.request_timeout_seconds == 9 && t.internal_deadline_ms == 6500])
    error_message = "the catalog's declared timeoutSeconds 10 (budget needs ceil(3.5) + ceil(0.5) = 5); request 9; deadline 9 - 2.5 = 6.5 s"
  }
  assert {
    condition     = length(output.timeouts) == length(output.catalog_functions)
    error_message = "every catalog function deployed and registered"
  }
}
