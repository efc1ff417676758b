// Generated in functions/ of a copy of the repository: built and tested green, listed in the root pom, functions/pom.xml
// left as it was, its registration joins the Terraform catalog with no edit, and the root build's checks stay green.
def checks = evaluate(new File(itSupport, 'ItChecks.groovy'))
def name = 'deny-latest-tag'
def project = new File(basedir, name)
def root = new File(tollgateRoot)

def pom = new File(project, 'pom.xml').text
assert pom.contains('<artifactId>tollgate-function-parent</artifactId>') : 'parented pom must use the functions parent'
assert new File(project, 'src/main/java/dev/tollgate/functions/denylatesttag/DenyLatestTag.java').isFile()
checks.assertOnlyThePolicy(new File(project, 'src/main/java/dev/tollgate/functions/denylatesttag/DenyLatestTag.java'))

assert new File(basedir, 'pom.xml').text == new File(basedir, 'functions-pom.before').text :
        'functions/pom.xml must be left exactly as it was'
def before = new File(basedir, 'root-pom.before').readLines()
def after = new File(basedir.parentFile, 'pom.xml').readLines()
assert after.size() == before.size() + 1 && after.count { it.trim() == "<module>functions/${name}</module>" } == 1 :
        'the root pom gains exactly the new module line'
assert (after - ["    <module>functions/${name}</module>"]) == before

def webhook = new File(project, 'webhook.yaml').text
assert webhook.contains("name: ${name}.tollgate.dev")
assert webhook.contains('type: validating')
assert webhook.contains('operations: ["CREATE", "UPDATE"]')
assert webhook.contains('resources: ["pods"]')
assert webhook.contains('failurePolicy: Fail')
assert webhook.contains('timeoutSeconds: 10')
assert !webhook.contains('reinvocationPolicy') : 'a validating entry has no reinvocationPolicy'

checks.assertTestsPassed(project, 3, 40)
checks.assertTestFilePassed(project, 'dev.tollgate.functions.denylatesttag.DenyLatestTagTestFileTest', 2)
checks.assertIntegrationTestsPassed(project, 'dev.tollgate.functions.denylatesttag.DenyLatestTagIT', 30)
checks.assertKnativeManifest(project, name, 10)
checks.assertFragmentLikeTheRepository(root, project, name, 10)
checks.assertJoinsCatalog(root, project, name, 'validating', basedir.parentFile)
// Before dev mode, which renders target/kubernetes/knative.yml again with the port it is given here.
checks.assertRootChecksGreen(basedir.parentFile, project, name, localRepositoryPath, repoTail,
        new File(root.parentFile, 'shared/fixtures'))
// Dev mode resolves the shared modules from the copy's workspace, as in a checkout after step 1: compiled and
// indexed (the jandex index, at process-classes, is how their beans are found).
checks.mavenInCopy(basedir.parentFile, 'compile-upstream', ['-q', 'process-classes', '-pl', "functions/${name}", '-am'],
        localRepositoryPath, repoTail)
checks.assertDevModeServesAndReloads(root, project, name, localRepositoryPath, repoTail)
return true
