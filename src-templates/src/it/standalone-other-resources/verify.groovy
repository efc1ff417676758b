// Rules on configmaps only: the example rule's pods never reach the function, and the test file says so and passes.
def checks = evaluate(new File(itSupport, "ItChecks.groovy"))
def project = new File(basedir, 'configmap-check')
def testFile = new File(project, 'src/test/resources/tollgate-test.yaml').text
assert testFile.contains('matches neither pods nor deployments on CREATE')
assert testFile.contains('- name: a pod is not sent to configmap-check')
assert testFile.count('- name:') == 1 : testFile
checks.assertTestFilePassed(project, 'dev.tollgate.functions.configmapcheck.ConfigmapCheckTestFileTest', 1)
return true
