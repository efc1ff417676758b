// This folder plays functions/ of a copy of the repository: the checkout's files (tracked and new, as git lists them;
// without git, every file outside target/) are copied to the folder above, so the generated function lands beside
// the real ones and the root build's drift checks see it as they would in the checkout.
def root = new File(tollgateRoot)
def copy = basedir.parentFile
def files = []
try {
    def git = ['git', '-C', root.path, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'].execute()
    def out = git.inputStream.text
    if (git.waitFor() == 0) {
        files = out.split('\u0000').findAll { it && new File(root, it).isFile() }
    }
} catch (IOException ignored) {
    // no git on the PATH: walk the tree below
}
if (files.isEmpty()) {
    root.eachFileRecurse(groovy.io.FileType.FILES) { f ->
        def rel = root.toPath().relativize(f.toPath()).toString()
        if (!(rel.split('/').any { it == 'target' || it == '.git' })) files << rel
    }
}
// The function this test generates is README.md's example: a checkout where a reader (or .ci/run's walk of the
// README) already generated it is copied as it was before that, since this test checks what generating it changes:
// the example's folder and Knative files are left out, and the files its generation and build change are copied as
// committed.
def example = 'deny-latest-tag'
def leftOut = ["functions/${example}/", "knative/${example}.yaml", "knative/jvm/${example}.yaml"]
def asCommitted = ['pom.xml', 'terraform/catalog/catalog.json', 'knative/README.md']
boolean exampleThere = new File(root, "functions/${example}").exists()
if (exampleThere) {
    files = files.findAll { rel -> !leftOut.any { rel == it || rel.startsWith(it) } }
}
files.each { rel ->
    def target = new File(copy, rel)
    target.parentFile.mkdirs()
    if (exampleThere && asCommitted.contains(rel)) {
        def show = ['git', '-C', root.path, 'show', "HEAD:${rel}"].execute()
        def bytes = show.inputStream.bytes
        assert show.waitFor() == 0 : "functions/${example} exists in ${root} and git cannot show ${rel} as committed:" +
                " move functions/${example} away to run this test"
        target.bytes = bytes
    } else {
        target.bytes = new File(root, rel).bytes
    }
    if (new File(root, rel).canExecute()) target.setExecutable(true)
}
assert new File(copy, 'pom.xml').isFile() && new File(basedir, 'pom.xml').isFile() : "nothing copied from ${root}"
// What the poms were before generating, for verify.groovy (the checkout may change while this runs).
new File(basedir, 'root-pom.before').bytes = new File(copy, 'pom.xml').bytes
new File(basedir, 'functions-pom.before').bytes = new File(basedir, 'pom.xml').bytes
return true
