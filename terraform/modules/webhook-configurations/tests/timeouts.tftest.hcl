# The timing budget: webhook timeoutSeconds, the platform's request timeout and the function's internal deadline.
#   needed   = ceil(cold start + evaluation) + ceil(network)     (a cold call fits)
#   webhook  = override, else the timeoutSeconds declared in webhook.yaml, else min(30, needed)
#   request  = webhook - ceil(network)                            (Knative Service / Lambda timeout)
#   deadline = max(request - cold start, min(evaluation, request)) (TOLLGATE_DEADLINE_TIMEOUT)

variables {
  kubernetes_version = "1.30"
  catalog = {
    functions = {
      strict = {
        webhooks = [{
          type    = "validating"
          path    = "/strict"
          webhook = { name = "strict.tollgate.dev", failurePolicy = "Fail", sideEffects = "None", admissionReviewVersions = ["v1"] }
        }]
      }
      lenient = {
        webhooks = [{
          type    = "mutating"
          path    = "/lenient"
          webhook = { name = "lenient.tollgate.dev", failurePolicy = "Ignore", sideEffects = "None", admissionReviewVersions = ["v1"] }
        }]
      }
    }
  }
  default_url = "https://functions.example.com"
}

run "default_budget" {
  command = plan

  assert {
    condition     = output.budget.needed_timeout_seconds == 7 && output.budget.timeout_seconds == 7
    error_message = "5 + 1 + 1 = 7"
  }
  assert {
    condition     = output.timeouts.strict.webhook_timeout_seconds == 7 && output.timeouts.strict.request_timeout_seconds == 6 && output.timeouts.strict.internal_deadline_ms == 1000
    error_message = "7 / 6 / 1000 ms, got ${jsonencode(output.timeouts.strict)}"
  }
  assert {
    condition     = output.timeouts.strict.environment.TOLLGATE_DEADLINE_TIMEOUT == "1000ms"
    error_message = "deadline as the runtime's environment variable"
  }
  assert {
    condition     = nonsensitive(output.validating_configuration.webhooks[0].timeoutSeconds) == output.timeouts.strict.webhook_timeout_seconds
    error_message = "the configuration carries the same timeout"
  }
}

run "fractional_parts_round_up_separately" {
  command = plan

  variables {
    timing = { cold_start_seconds = 0.4, evaluation_seconds = 0.25, network_seconds = 0.3 }
  }

  assert {
    condition     = output.timeouts.strict.webhook_timeout_seconds == 2 && output.timeouts.strict.request_timeout_seconds == 1 && output.timeouts.strict.internal_deadline_ms == 600
    error_message = "ceil(0.65) + ceil(0.3) = 2; request 1; deadline 1 - 0.4 = 0.6 s, got ${jsonencode(output.timeouts.strict)}"
  }
}

run "request_timeout_covers_cold_start_and_evaluation" {
  command = plan

  variables {
    timing = { cold_start_seconds = 5.5, evaluation_seconds = 1, network_seconds = 0.5 }
  }

  assert {
    condition     = output.timeouts.strict.webhook_timeout_seconds == 8 && output.timeouts.strict.request_timeout_seconds == 7 && output.timeouts.strict.internal_deadline_ms == 1500
    error_message = "ceil(6.5) + ceil(0.5) = 8; request 7 >= 5.5 + 1; deadline 1.5 s, got ${jsonencode(output.timeouts.strict)}"
  }
}

run "large_budget_below_the_cap" {
  command = plan

  variables {
    timing = { cold_start_seconds = 20, evaluation_seconds = 5, network_seconds = 2 }
  }

  assert {
    condition     = output.timeouts.strict.webhook_timeout_seconds == 27 && output.timeouts.strict.request_timeout_seconds == 25 && output.timeouts.strict.internal_deadline_ms == 5000
    error_message = "27 / 25 / 5000 ms, got ${jsonencode(output.timeouts.strict)}"
  }
}

run "override_raises_the_timeout_and_the_deadline" {
  command = plan

  variables {
    overrides = { strict = { timeout_seconds = 12 } }
  }

  assert {
    condition     = output.timeouts.strict.webhook_timeout_seconds == 12 && output.timeouts.strict.request_timeout_seconds == 11 && output.timeouts.strict.internal_deadline_ms == 6000
    error_message = "12 / 11 / 11 - 5 = 6 s, got ${jsonencode(output.timeouts.strict)}"
  }
  assert {
    condition     = output.timeouts.lenient.webhook_timeout_seconds == 7
    error_message = "other functions keep the budget"
  }
}

run "fail_webhook_shorter_than_the_cold_start_budget_is_an_error" {
  command = plan

  variables {
    overrides = { strict = { timeout_seconds = 5 } }
  }

  expect_failures = [output.timeouts]
}

run "budget_over_30_seconds_is_an_error_for_fail_webhooks" {
  command = plan

  variables {
    timing = { cold_start_seconds = 28, evaluation_seconds = 2, network_seconds = 1 }
  }

  # The lenient (Ignore) function only gets the warning.
  expect_failures = [output.timeouts, check.ignore_webhooks_cover_cold_starts]
}

run "ignore_webhooks_may_be_shorter_with_a_warning" {
  command = plan

  variables {
    timing    = { cold_start_seconds = 28, evaluation_seconds = 2, network_seconds = 1 }
    overrides = { strict = { failure_policy = "Ignore" } }
  }

  assert {
    condition     = output.budget.needed_timeout_seconds == 31 && output.timeouts.strict.webhook_timeout_seconds == 30
    error_message = "capped at 30"
  }
  assert {
    condition     = output.timeouts.strict.request_timeout_seconds == 29 && output.timeouts.strict.internal_deadline_ms == 2000
    error_message = "request 29; a warm call keeps its 2 s evaluation budget, got ${jsonencode(output.timeouts.strict)}"
  }

  expect_failures = [check.ignore_webhooks_cover_cold_starts]
}

run "short_ignore_webhook_keeps_a_positive_deadline" {
  command = plan

  variables {
    overrides = { lenient = { timeout_seconds = 3 } }
  }

  assert {
    condition     = output.timeouts.lenient.webhook_timeout_seconds == 3 && output.timeouts.lenient.request_timeout_seconds == 2 && output.timeouts.lenient.internal_deadline_ms == 1000
    error_message = "3 / 2 / min(1, 2) s, got ${jsonencode(output.timeouts.lenient)}"
  }

  expect_failures = [check.ignore_webhooks_cover_cold_starts]
}

run "one_second_timeout_still_gives_a_request_timeout" {
  command = plan

  variables {
    overrides = { lenient = { timeout_seconds = 1 } }
  }

  assert {
    condition     = output.timeouts.lenient.request_timeout_seconds == 1 && output.timeouts.lenient.internal_deadline_ms == 1000
    error_message = "at least 1 s, got ${jsonencode(output.timeouts.lenient)}"
  }

  expect_failures = [check.ignore_webhooks_cover_cold_starts]
}

run "no_network_margin" {
  command = plan

  variables {
    timing = { cold_start_seconds = 2, evaluation_seconds = 0.5, network_seconds = 0 }
  }

  assert {
    condition     = output.timeouts.strict.webhook_timeout_seconds == 3 && output.timeouts.strict.request_timeout_seconds == 3 && output.timeouts.strict.internal_deadline_ms == 1000
    error_message = "3 / 3 / 1000 ms, got ${jsonencode(output.timeouts.strict)}"
  }
}

run "declared_timeout_wins_over_the_budget_and_is_checked" {
  command = plan

  variables {
    catalog = {
      functions = {
        strict = {
          webhooks = [
            {
              type    = "validating"
              path    = "/strict/a"
              webhook = { name = "a.strict.tollgate.dev", failurePolicy = "Fail", sideEffects = "None", admissionReviewVersions = ["v1"], timeoutSeconds = 12 }
            },
            {
              type    = "validating"
              path    = "/strict/b"
              webhook = { name = "b.strict.tollgate.dev", failurePolicy = "Fail", sideEffects = "None", admissionReviewVersions = ["v1"], timeoutSeconds = 10 }
            }
          ]
        }
      }
    }
  }

  assert {
    condition     = output.timeouts.strict.webhook_timeout_seconds == 10 && output.timeouts.strict.request_timeout_seconds == 9 && output.timeouts.strict.internal_deadline_ms == 4000
    error_message = "the smallest declared timeout (10) wins: request 9, deadline 9 - 5 = 4 s, got ${jsonencode(output.timeouts.strict)}"
  }
  assert {
    condition     = alltrue([for w in nonsensitive(output.validating_configuration.webhooks) : w.timeoutSeconds == 10])
    error_message = "every webhook of the function carries the function's timeout"
  }
}

run "declared_timeout_too_short_for_a_cold_fail_call_is_an_error" {
  command = plan

  variables {
    catalog = {
      functions = {
        strict = {
          webhooks = [{
            type    = "validating"
            path    = "/strict"
            webhook = { name = "strict.tollgate.dev", failurePolicy = "Fail", sideEffects = "None", admissionReviewVersions = ["v1"], timeoutSeconds = 3 }
          }]
        }
      }
    }
  }

  expect_failures = [output.timeouts]
}
