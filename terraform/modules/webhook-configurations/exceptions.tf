# Exceptions the API server applies: the reviewed exceptions file (terraform/README.md, "Exceptions") compiled into
# each webhook of the functions it names, for this cluster's Kubernetes version:
#   - from 1.28: one matchCondition per exception, `!(criterion && criterion ...)`, named exception.tollgate.dev/<name>;
#   - namespace_labels (a webhook's CEL cannot see namespace labels) and, before 1.28, an exception whose only
#     criterion is one label requirement or the namespaces: the negated requirement ANDed to namespaceSelector or
#     objectSelector, where that is exactly the exception (see exception_plan below);
#   - anything else is listed in exceptions_applied_by_function: the API server sends those requests to the function.
# An exception whose expiry is not after plantimestamp() is dropped and listed in exceptions_expired.
#
# Upstream semantics reproduced here (kubernetes/kubernetes):
#   staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/namespace/matcher.go (namespaceSelector:
#     cluster-scoped requests other than namespaces are never exempted; a Namespace's own labels on CREATE/UPDATE),
#   staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/object/matcher.go (objectSelector: called when
#     the object or the old object matches; a missing object, or one without metadata, matches nothing),
#   staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Requirement.Matches: NotIn and DoesNotExist match a set
#     without the key, In and Exists need it),
#   staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go (a Namespace's own requests carry its name),
#   pkg/apis/admissionregistration/validation/validation.go (at most 64 matchConditions, unique qualified names).

variable "exceptions" {
  description = "The exceptions file's list (yamldecode(file(\"exceptions.yaml\")).exceptions): name, functions, match (namespaces, names, namespace_labels, object_labels, users, groups, service_accounts, operations), reason, expires (RFC 3339). See terraform/README.md, Exceptions."
  type        = any
  default     = []
  nullable    = false

  validation {
    condition     = !can(keys(var.exceptions)) && can([for x in var.exceptions : x]) && alltrue([for x in try([for x in var.exceptions : x], []) : can(keys(x))])
    error_message = "Exceptions file: exceptions must be a list of mappings (the file's top-level exceptions: list, passed as yamldecode(file(...)).exceptions)."
  }
  validation {
    condition = length(flatten([for i, e in try([for x in var.exceptions : x], []) : [
      for f in concat(
        [for k in keys(e) : k if !contains(local.exception_fields, k)],
        [for k in try(keys(e.match), []) : "match.${k}" if !contains(local.exception_match_fields, k)],
        flatten([for s in ["namespace_labels", "object_labels"] : concat(
          [for k in try(keys(e.match[s]), []) : "match.${s}.${k}" if !contains(["matchLabels", "matchExpressions"], k)],
          flatten([for j, x in try([for y in e.match[s].matchExpressions : y], []) : [for k in try(keys(x), []) : "match.${s}.matchExpressions[${j}].${k}" if !contains(["key", "operator", "values"], k)]]),
        )]),
      ) : f
    ] if !can(keys(var.exceptions)) && can(keys(e))])) == 0
    error_message = "Exceptions file: ${join("; ", [for i, e in try([for x in var.exceptions : x], []) : "${try(format("exception %q", e.name), "exception #${i + 1}")}: unknown field(s) ${join(", ", concat(
      [for k in keys(e) : k if !contains(local.exception_fields, k)],
      [for k in try(keys(e.match), []) : "match.${k}" if !contains(local.exception_match_fields, k)],
      flatten([for s in ["namespace_labels", "object_labels"] : concat(
        [for k in try(keys(e.match[s]), []) : "match.${s}.${k}" if !contains(["matchLabels", "matchExpressions"], k)],
        flatten([for j, x in try([for y in e.match[s].matchExpressions : y], []) : [for k in try(keys(x), []) : "match.${s}.matchExpressions[${j}].${k}" if !contains(["key", "operator", "values"], k)]]),
      )]),
      ))} (known: ${join(", ", local.exception_fields)}; match: ${join(", ", local.exception_match_fields)})" if !can(keys(var.exceptions)) && can(keys(e)) && try(length(concat(
      [for k in keys(e) : k if !contains(local.exception_fields, k)],
      [for k in try(keys(e.match), []) : "match.${k}" if !contains(local.exception_match_fields, k)],
      flatten([for s in ["namespace_labels", "object_labels"] : concat(
        [for k in try(keys(e.match[s]), []) : "match.${s}.${k}" if !contains(["matchLabels", "matchExpressions"], k)],
        flatten([for j, x in try([for y in e.match[s].matchExpressions : y], []) : [for k in try(keys(x), []) : "match.${s}.matchExpressions[${j}].${k}" if !contains(["key", "operator", "values"], k)]]),
      )]),
    )) > 0, false)])}."
  }
  validation {
    condition = length([for i, e in try([for x in var.exceptions : x], []) : i
    if !can(keys(var.exceptions)) && can(keys(e)) && !try(length(e.name) <= 63 && can(regex(local.exception_dns_label, e.name)), false)]) == 0
    error_message = "Exceptions file: ${join("; ", [for i, e in try([for x in var.exceptions : x], []) : can(e.name) ? format("exception %s: name must be a DNS label (lower-case letters, digits and '-', at most 63 characters)", try(jsonencode(e.name), "#${i + 1}")) : "exception #${i + 1}: name is missing"
    if !can(keys(var.exceptions)) && can(keys(e)) && !try(length(e.name) <= 63 && can(regex(local.exception_dns_label, e.name)), false)])}."
  }
  validation {
    condition     = length(distinct([for e in try([for x in var.exceptions : x], []) : tostring(e.name) if can(tostring(e.name))])) == length([for e in try([for x in var.exceptions : x], []) : e if can(tostring(e.name))])
    error_message = "Exceptions file: names must be unique; repeated: ${join(", ", distinct([for e in try([for x in var.exceptions : x], []) : format("exception %q", tostring(e.name)) if can(tostring(e.name)) && length([for y in try([for x in var.exceptions : x], []) : y if try(tostring(y.name) == tostring(e.name), false)]) > 1]))}."
  }
  validation {
    condition = length([for i, e in try([for x in var.exceptions : x], []) : i
      if !can(keys(var.exceptions)) && can(keys(e)) && !try(!can(keys(e.functions)) && length(e.functions) > 0 && alltrue([for f in e.functions : contains(keys(var.catalog.functions), f)]), false)
    ]) == 0
    error_message = "Exceptions file: ${join("; ", [for i, e in try([for x in var.exceptions : x], []) : "${try(format("exception %q", e.name), "exception #${i + 1}")}: functions must be a non-empty list of catalog functions${try(length([for f in e.functions : f if !contains(keys(var.catalog.functions), f)]) > 0, false) ? format(" (not in the catalog: %s)", join(", ", [for f in e.functions : f if !contains(keys(var.catalog.functions), f)])) : ""}"
    if !can(keys(var.exceptions)) && can(keys(e)) && !try(!can(keys(e.functions)) && length(e.functions) > 0 && alltrue([for f in e.functions : contains(keys(var.catalog.functions), f)]), false)])}."
  }
  validation {
    condition = length([for i, e in try([for x in var.exceptions : x], []) : i
      if !can(keys(var.exceptions)) && can(keys(e)) && !try(length([for f in local.exception_match_fields : f if try(length(e.match[f]) > 0, false)]) > 0, false)
    ]) == 0
    error_message = "Exceptions file: ${join("; ", [for i, e in try([for x in var.exceptions : x], []) : "${try(format("exception %q", e.name), "exception #${i + 1}")}: match must name at least one of ${join(", ", local.exception_match_fields)} (an exception for every request would switch the function off: use overrides[function].enabled = false)"
    if !can(keys(var.exceptions)) && can(keys(e)) && !try(length([for f in local.exception_match_fields : f if try(length(e.match[f]) > 0, false)]) > 0, false)])}."
  }
  validation {
    # The lists of names: each a list of non-empty strings of the right form.
    condition = length(flatten([for i, e in try([for x in var.exceptions : x], []) : [
      for f, rule in local.exception_list_rules : f if can(e.match[f]) && !try(!can(keys(e.match[f])) && !can(tostring(e.match[f])) && alltrue([for v in e.match[f] : can(regex(rule.pattern, v)) && length(v) <= rule.max]), false)
    ] if !can(keys(var.exceptions)) && can(keys(e))])) == 0
    error_message = "Exceptions file: ${join("; ", flatten([for i, e in try([for x in var.exceptions : x], []) : [
      for f, rule in local.exception_list_rules : "${try(format("exception %q", e.name), "exception #${i + 1}")}: match.${f} must be a list of ${rule.what}${try(length([for v in e.match[f] : v if !(can(regex(rule.pattern, v)) && length(v) <= rule.max)]) > 0, false) ? format(" (not: %s)", join(", ", [for v in e.match[f] : jsonencode(v) if !(can(regex(rule.pattern, v)) && length(v) <= rule.max)])) : ""}"
      if can(e.match[f]) && !try(!can(keys(e.match[f])) && !can(tostring(e.match[f])) && alltrue([for v in e.match[f] : can(regex(rule.pattern, v)) && length(v) <= rule.max]), false)
    ] if !can(keys(var.exceptions)) && can(keys(e))]))}."
  }
  validation {
    # Label selectors, with the API server's rules for LabelSelector (and at least one requirement).
    condition = length(flatten([for i, e in try([for x in var.exceptions : x], []) : [
      for s in ["namespace_labels", "object_labels"] : s if can(e.match[s]) && !try(
        length(keys(try(e.match[s].matchLabels, {}))) + length(try(e.match[s].matchExpressions, [])) > 0
        && alltrue([for k, v in try(e.match[s].matchLabels, {}) : can(regex(local.exception_label_key, k)) && can(regex(local.exception_label_value, v))])
        && alltrue([for x in try(e.match[s].matchExpressions, []) : can(regex(local.exception_label_key, x.key)) && (
          contains(["In", "NotIn"], x.operator) ? length(x.values) > 0 && alltrue([for v in x.values : can(regex(local.exception_label_value, v))]) : contains(["Exists", "DoesNotExist"], x.operator) && length(try(x.values, [])) == 0
      )]), false)
    ] if !can(keys(var.exceptions)) && can(keys(e))])) == 0
    error_message = "Exceptions file: ${join("; ", flatten([for i, e in try([for x in var.exceptions : x], []) : [
      for s in ["namespace_labels", "object_labels"] : "${try(format("exception %q", e.name), "exception #${i + 1}")}: match.${s} must be a label selector with at least one requirement: matchLabels of valid label keys and values, matchExpressions of {key, operator In or NotIn with values, Exists or DoesNotExist without}"
      if can(e.match[s]) && !try(
        length(keys(try(e.match[s].matchLabels, {}))) + length(try(e.match[s].matchExpressions, [])) > 0
        && alltrue([for k, v in try(e.match[s].matchLabels, {}) : can(regex(local.exception_label_key, k)) && can(regex(local.exception_label_value, v))])
        && alltrue([for x in try(e.match[s].matchExpressions, []) : can(regex(local.exception_label_key, x.key)) && (
          contains(["In", "NotIn"], x.operator) ? length(x.values) > 0 && alltrue([for v in x.values : can(regex(local.exception_label_value, v))]) : contains(["Exists", "DoesNotExist"], x.operator) && length(try(x.values, [])) == 0
      )]), false)
    ] if !can(keys(var.exceptions)) && can(keys(e))]))}."
  }
  validation {
    condition = length([for i, e in try([for x in var.exceptions : x], []) : i
    if !can(keys(var.exceptions)) && can(keys(e)) && !try(trimspace(e.reason) != "", false)]) == 0
    error_message = "Exceptions file: ${join("; ", [for i, e in try([for x in var.exceptions : x], []) : "${try(format("exception %q", e.name), "exception #${i + 1}")}: reason is missing (say why the exception exists, for the review)"
    if !can(keys(var.exceptions)) && can(keys(e)) && !try(trimspace(e.reason) != "", false)])}."
  }
  validation {
    condition = length([for i, e in try([for x in var.exceptions : x], []) : i
    if !can(keys(var.exceptions)) && can(keys(e)) && !can(timecmp(e.expires, "2000-01-01T00:00:00Z"))]) == 0
    error_message = "Exceptions file: ${join("; ", [for i, e in try([for x in var.exceptions : x], []) : "${try(format("exception %q", e.name), "exception #${i + 1}")}: ${can(e.expires) ? "expires ${try(jsonencode(e.expires), "(not a string)")} is not an RFC 3339 timestamp" : "expires is missing"} (e.g. 2026-12-31T00:00:00Z; every exception ends)"
    if !can(keys(var.exceptions)) && can(keys(e)) && !can(timecmp(e.expires, "2000-01-01T00:00:00Z"))])}."
  }
}

locals {
  exception_fields       = ["name", "functions", "match", "reason", "expires"]
  exception_match_fields = ["namespaces", "names", "namespace_labels", "object_labels", "users", "groups", "service_accounts", "operations"]
  exception_dns_label    = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
  exception_label_key    = "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$"
  exception_label_value  = "^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$"
  exception_list_rules = {
    namespaces       = { pattern = local.exception_dns_label, max = 63, what = "namespace names (DNS labels)" }
    names            = { pattern = "^.+$", max = 253, what = "object names (non-empty)" }
    users            = { pattern = "^.+$", max = 1024, what = "user names (non-empty)" }
    groups           = { pattern = "^.+$", max = 1024, what = "group names (non-empty)" }
    service_accounts = { pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?/([a-z0-9]([-a-z0-9.]*[a-z0-9])?|\\*)$", max = 317, what = "<namespace>/<name> or <namespace>/*" }
    operations       = { pattern = "^(CREATE|UPDATE|DELETE|CONNECT)$", max = 7, what = "operations (CREATE, UPDATE, DELETE, CONNECT)" }
  }
  # A label requirement's complement is one requirement (labels/selector.go: NotIn also matches a missing key).
  exception_negated = { In = "NotIn", NotIn = "In", Exists = "DoesNotExist", DoesNotExist = "Exists" }

  # The file's exceptions, normalised (an invalid file fails the variable's validations first).
  exception_all = try([for e in var.exceptions : {
    name             = tostring(e.name)
    functions        = [for f in e.functions : tostring(f)]
    reason           = tostring(e.reason)
    expires          = tostring(e.expires)
    expired          = timecmp(tostring(e.expires), plantimestamp()) <= 0
    namespaces       = sort([for v in try(e.match.namespaces, []) : tostring(v)])
    names            = sort([for v in try(e.match.names, []) : tostring(v)])
    users            = sort([for v in try(e.match.users, []) : tostring(v)])
    groups           = sort([for v in try(e.match.groups, []) : tostring(v)])
    service_accounts = sort([for v in try(e.match.service_accounts, []) : tostring(v)])
    operations       = sort([for v in try(e.match.operations, []) : tostring(v)])
    namespace_labels = concat(
      [for k, v in try(e.match.namespace_labels.matchLabels, {}) : { key = k, operator = "In", values = [tostring(v)] }],
      [for x in try(e.match.namespace_labels.matchExpressions, []) : { key = x.key, operator = x.operator, values = [for v in try(x.values, []) : tostring(v)] }],
    )
    object_labels = concat(
      [for k, v in try(e.match.object_labels.matchLabels, {}) : { key = k, operator = "In", values = [tostring(v)] }],
      [for x in try(e.match.object_labels.matchExpressions, []) : { key = x.key, operator = x.operator, values = [for v in try(x.values, []) : tostring(v)] }],
    )
  }], [])

  exception_active = [for x in local.exception_all : merge(x, {
    # users, groups and service accounts together say who: one criterion.
    criteria = length([for c in [x.namespaces, x.names, x.namespace_labels, x.object_labels, concat(x.users, x.groups, x.service_accounts), x.operations] : c if length(c) > 0])
    # The request the exception describes, in a webhook's CEL (variables request, object, oldObject). Lists and
    # strings are JSON literals, which CEL reads the same way. Every optional field is tested with has() first: a
    # condition that errors counts as a call error under the webhook's failurePolicy.
    match_expression = join(" && ", concat(
      length(x.namespaces) == 0 ? [] : [format(
        "(request.resource.group == '' && request.resource.resource == 'namespaces' ? has(request.name) && request.name in %s : has(request.namespace) && request.namespace in %s)",
      jsonencode(x.namespaces), jsonencode(x.namespaces))],
      length(x.names) == 0 ? [] : [format("(has(request.name) && request.name in %s)", jsonencode(x.names))],
      length(concat(x.users, x.groups, x.service_accounts)) == 0 ? [] : [format("(%s)", join(" || ", concat(
        length(x.users) == 0 ? [] : [format("(has(request.userInfo.username) && request.userInfo.username in %s)", jsonencode(x.users))],
        length([for s in x.service_accounts : s if !endswith(s, "/*")]) == 0 ? [] : [format("(has(request.userInfo.username) && request.userInfo.username in %s)",
        jsonencode([for s in x.service_accounts : "system:serviceaccount:${replace(s, "/", ":")}" if !endswith(s, "/*")]))],
        [for s in x.service_accounts : format("(has(request.userInfo.username) && request.userInfo.username.startsWith(%s))", jsonencode("system:serviceaccount:${trimsuffix(s, "/*")}:")) if endswith(s, "/*")],
        length(x.groups) == 0 ? [] : [format("(has(request.userInfo.groups) && request.userInfo.groups.exists(g, g in %s))", jsonencode(x.groups))],
      )))],
      length(x.operations) == 0 ? [] : [format("request.operation in %s", jsonencode(x.operations))],
      # As an objectSelector matches: every object of the request that has metadata (object, oldObject) matches.
      length(x.object_labels) == 0 ? [] : [for o in ["object", "oldObject"] : format("(%s == null || !has(%s.metadata) || (%s))", o, o, join(" && ", [
        for r in x.object_labels : (
          r.operator == "In" ? format("(has(%s.metadata.labels) && %s in %s.metadata.labels && %s.metadata.labels[%s] in %s)", o, jsonencode(r.key), o, o, jsonencode(r.key), jsonencode(r.values))
          : r.operator == "NotIn" ? format("!(has(%s.metadata.labels) && %s in %s.metadata.labels && %s.metadata.labels[%s] in %s)", o, jsonencode(r.key), o, o, jsonencode(r.key), jsonencode(r.values))
          : r.operator == "Exists" ? format("(has(%s.metadata.labels) && %s in %s.metadata.labels)", o, jsonencode(r.key), o)
          : format("!(has(%s.metadata.labels) && %s in %s.metadata.labels)", o, jsonencode(r.key), o)
        )
      ]))],
    ))
  }) if !x.expired]

  # Per webhook: how each exception for its function is applied on this cluster. Exact only:
  #   namespaceSelector: the webhook is called when the request's namespace labels match every requirement
  #     (namespace/matcher.go); one label set, so ANDing the complement of a single requirement drops exactly the
  #     requests whose namespace matches it. Cluster-scoped requests other than namespaces are never dropped, which is
  #     also what the exception means (they have no namespace). The namespaces criterion selects on
  #     kubernetes.io/metadata.name, set to the namespace's name on every namespace from Kubernetes 1.21.
  #   objectSelector: the webhook is called when the object or the old object matches (object/matcher.go), so the
  #     complement of one requirement drops the requests whose every object with metadata matches it, as the CEL
  #     form does; with another object selector or a second such exception, (S and not E)(object) or (S and not
  #     E)(oldObject) is no longer "S matched and not excepted", so only the first, on a webhook without one.
  exception_plan = { for e in local.entries : e.name => {
    function = e.function
    modes = { for x in [for x in local.exception_active : x if contains(x.functions, e.function)] : x.name => (
      length(x.namespace_labels) > 0 ? (x.criteria == 1 && length(x.namespace_labels) == 1 ? "namespaceSelector" : "function")
      : local.kubernetes_minor >= 28 ? "matchConditions"
      : x.criteria == 1 && length(x.namespaces) > 0 && local.kubernetes_minor >= 21 ? "namespaceSelector"
      : x.criteria == 1 && length(x.object_labels) == 1 && x.name == try([for y in local.exception_active : y.name if contains(y.functions, e.function) && y.criteria == 1 && length(y.object_labels) == 1][0], "") && length(concat(
        keys(coalesce(try(e.declared.objectSelector.matchLabels, null), {})), coalesce(try(e.declared.objectSelector.matchExpressions, null), []),
        keys(e.added_obj.matchLabels), e.added_obj.matchExpressions,
      )) == 0 ? "objectSelector"
      : "function"
    ) }
  } }

  exception_by_name = { for x in local.exception_active : x.name => x }
  exception_namespace_expressions = { for w, p in local.exception_plan : w => [for n, m in p.modes : { for k, v in {
    key      = length(local.exception_by_name[n].namespaces) > 0 ? "kubernetes.io/metadata.name" : local.exception_by_name[n].namespace_labels[0].key
    operator = length(local.exception_by_name[n].namespaces) > 0 ? "NotIn" : local.exception_negated[local.exception_by_name[n].namespace_labels[0].operator]
    values   = tolist(length(local.exception_by_name[n].namespaces) > 0 ? local.exception_by_name[n].namespaces : local.exception_by_name[n].namespace_labels[0].values)
  } : k => v if length(v) > 0 } if m == "namespaceSelector"] }
  exception_object_expressions = { for w, p in local.exception_plan : w => [for n, m in p.modes : { for k, v in {
    key      = local.exception_by_name[n].object_labels[0].key
    operator = local.exception_negated[local.exception_by_name[n].object_labels[0].operator]
    values   = tolist(local.exception_by_name[n].object_labels[0].values)
  } : k => v if length(v) > 0 } if m == "objectSelector"] }
  exception_match_conditions = { for w, p in local.exception_plan : w => [for n, m in p.modes : {
    name       = "exception.tollgate.dev/${n}"
    expression = "!(${local.exception_by_name[n].match_expression})"
  } if m == "matchConditions"] }

  exception_expired = { for x in local.exception_all : x.name => { expires = x.expires, functions = x.functions, reason = x.reason } if x.expired }
  exceptions_applied_by_function = { for f in distinct([for p in values(local.exception_plan) : p.function]) : f => sort(distinct(flatten([
    for p in values(local.exception_plan) : [for n, m in p.modes : n if m == "function"] if p.function == f
  ]))) if length(flatten([for p in values(local.exception_plan) : [for n, m in p.modes : n if m == "function"] if p.function == f])) > 0 }

  # Per exception the function applies: what it excepts by, why the API server cannot, and the label form that keeps
  # the requests away from the function on this version (issue 45: said where the user decides, in the plan).
  exception_advice = { for n in distinct(flatten(values(local.exceptions_applied_by_function))) : n => format(
    "%s (%s) excepts by %s: on Kubernetes %s (older than 1.28, no matchConditions) the function applies it and the requests still reach it. To keep them away, except by label instead, which a selector applies on every version: match.namespace_labels with one requirement on labelled namespaces (namespaceSelector), or match.object_labels with one requirement (objectSelector).",
    n, join(", ", sort([for f, ns in local.exceptions_applied_by_function : f if contains(ns, n)])),
    join(" and ", compact([
      length(local.exception_by_name[n].namespaces) > 0 ? "namespace name" : "",
      length(local.exception_by_name[n].names) > 0 ? "object name" : "",
      length(local.exception_by_name[n].users) > 0 ? "user" : "",
      length(local.exception_by_name[n].groups) > 0 ? "group" : "",
      length(local.exception_by_name[n].service_accounts) > 0 ? "service account" : "",
      length(local.exception_by_name[n].operations) > 0 ? "operation" : "",
      length(local.exception_by_name[n].namespace_labels) > 0 ? "namespace labels" : "",
      length(local.exception_by_name[n].object_labels) > 0 ? "object labels" : "",
    ])), var.kubernetes_version
  ) if local.kubernetes_minor < 28 }
}

check "exceptions_expired" {
  assert {
    condition     = length(local.exception_expired) == 0
    error_message = "Expired exceptions, no longer applied (remove them from the exceptions file, or extend them after a review): ${join(", ", [for n, x in local.exception_expired : "${n} (expired ${x.expires})"])}."
  }
}

check "exceptions_applied_by_the_api_server" {
  assert {
    condition     = length(local.exceptions_applied_by_function) == 0
    error_message = "On Kubernetes ${var.kubernetes_version} neither matchConditions nor a selector can express these exceptions, so the API server sends their requests to the function (output exceptions_applied_by_function): ${join("; ", [for f, ns in local.exceptions_applied_by_function : "${f}: ${join(", ", ns)}"])}.${length(local.exception_advice) == 0 ? "" : " ${join(" ", values(local.exception_advice))}"}"
  }
}
