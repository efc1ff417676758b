output "function_urls" {
  description = "Base HTTPS URL per function (no trailing /): the function_urls input of webhook-configurations."
  value       = { for name, u in aws_lambda_function_url.function : name => trimsuffix(u.function_url, "/") }
}

output "function_names" {
  description = "Lambda function name per function."
  value       = { for name, f in aws_lambda_function.function : name => f.function_name }
}

output "function_arns" {
  description = "Lambda function ARN per function."
  value       = { for name, f in aws_lambda_function.function : name => f.arn }
}

output "log_groups" {
  description = "CloudWatch log group per function."
  value       = { for name, g in aws_cloudwatch_log_group.function : name => g.name }
}

output "role_arn" {
  description = "The execution role shared by the functions."
  value       = aws_iam_role.functions.arn
}
