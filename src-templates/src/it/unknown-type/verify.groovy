def log = new File(basedir, 'build.log').text
assert log.contains("type 'auditing' is unknown: use -Dtype=validating") : 'the failure must name the bad value'
assert !new File(basedir, 'audit-only').exists() : 'a failed generation leaves nothing behind'
assert !new File(basedir, 'pom.xml').text.contains('<module>') : 'the <module> line added to the enclosing pom is removed'
return true
