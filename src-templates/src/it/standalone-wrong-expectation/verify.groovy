// The generated build failed because of the wrong expectation, and only because of it: TestFileTest has the one failure
// naming the case, expected vs actual; the generated unit and HTTP tests passed.
def project = new File(basedir, 'pin-images')
def reports = new File(project, 'target/surefire-reports')
def suite = { String cls ->
    def report = new File(reports, "TEST-dev.tollgate.functions.pinimages.${cls}.xml")
    assert report.isFile() : "${cls} did not run (no ${report.name})"
    report.text
}
def counts = { String xml ->
    def head = (xml =~ /<testsuite\b[^>]*>/)[0]
    ['tests', 'failures', 'errors', 'skipped'].collectEntries { [(it): ((head =~ /\b${it}="(\d+)"/)[0][1]) as int] }
}

def fileTest = suite('PinImagesTestFileTest')
assert counts(fileTest) == [tests: 1, failures: 1, errors: 0, skipped: 0] : fileTest
assert fileTest.contains('1 of 2 cases failed') : 'the failure counts the cases'
assert fileTest.contains('an image without a tag is wrongly expected to pass')
assert fileTest.contains('expect.allowed') : 'the failure names the expectation'
assert fileTest.contains('uses unpinned image app (nginx)') : 'the failure shows what the policy answered'

['PinImagesTest', 'PinImagesHttpTest'].each {
    def c = counts(suite(it))
    assert c.failures == 0 && c.errors == 0 && c.tests > 0 : "${it}: ${c}"
}
return true
