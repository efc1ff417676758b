# Each function's tokens per governed cluster: as files, as one JSON value, and the pairs of clusters that share one.

variables {
  path_tokens = {
    east = { demo = "east-demo-0123456789", other = "east-other-0123456789" }
    west = { demo = "west-demo-0123456789" }
  }
  bearer_tokens = {
    east = { other = ["east-bearer-0123456789", "east-bearer-next-0123456789"] }
  }
}

run "each_function_gets_its_own_tokens_of_every_cluster" {
  command = plan

  assert {
    condition     = jsondecode(nonsensitive(output.clusters_json["demo"])) == { east = { "path-tokens" = ["east-demo-0123456789"] }, west = { "path-tokens" = ["west-demo-0123456789"] } }
    error_message = "demo: east's and west's path tokens, no token of another function"
  }
  assert {
    condition     = jsondecode(nonsensitive(output.clusters_json["other"])) == { east = { "path-tokens" = ["east-other-0123456789"], "bearer-tokens" = ["east-bearer-0123456789", "east-bearer-next-0123456789"] } }
    error_message = "other: only east calls it, with a path token and two bearer tokens"
  }
  assert {
    condition     = nonsensitive(output.path_token_files) == { demo = { "east.path-tokens" = "east-demo-0123456789\n", "west.path-tokens" = "west-demo-0123456789\n" }, other = { "east.path-tokens" = "east-other-0123456789\n" } }
    error_message = "one file per cluster, named for it (tollgate.auth.clusters-dir)"
  }
  assert {
    condition     = nonsensitive(output.bearer_token_files) == { other = { "east.bearer-tokens" = "east-bearer-0123456789\neast-bearer-next-0123456789\n" } }
    error_message = "bearer tokens one per line, in a file per cluster; none for a function no cluster sends one to"
  }
  assert {
    condition     = length(output.shared_tokens) == 0 && length(output.missing_kind) == 0 && jsonencode(output.functions) == jsonencode(["demo", "other"])
    error_message = "nothing shared, nothing missing"
  }
}

run "names_the_clusters_that_share_a_token_never_the_token" {
  command = plan

  variables {
    path_tokens = {
      east  = { demo = "shared-token-0123456789" }
      west  = { demo = "west-demo-0123456789" }
      north = { other = "shared-token-0123456789" }
    }
    bearer_tokens = {
      east = { demo = ["shared-bearer-0123456789"] }
      west = { demo = ["shared-bearer-0123456789"] }
    }
  }

  assert {
    condition     = jsonencode(output.shared_tokens) == jsonencode(["east and north (path token)", "east and west (bearer token)"])
    error_message = "each pair once, per kind, even when the token is another function's"
  }
}

run "names_a_cluster_without_a_kind_of_token_the_function_checks" {
  command = plan

  variables {
    bearer_tokens = {
      east = { demo = ["east-bearer-0123456789"] }
    }
  }

  assert {
    condition     = jsonencode(output.missing_kind) == jsonencode(["demo: cluster west has no bearer token"])
    error_message = "west calls demo with a path token only, but demo checks bearer tokens too (east's)"
  }
}
