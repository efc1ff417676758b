def log = new File(basedir, 'build.log').text
assert log.contains("artifactId 'Deny_Latest' is not a valid function name") : 'the failure must name the bad value'
assert log.contains('Tollgate function not generated')
assert !new File(basedir, 'Deny_Latest').exists() : 'a failed generation leaves nothing behind'
return true
