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
files.each { rel ->
    def target = new File(copy, rel)
    target.parentFile.mkdirs()
    target.bytes = new File(root, rel).bytes
    if (new File(root, rel).canExecute()) target.setExecutable(true)
}
assert new File(copy, 'pom.xml').isFile() && new File(basedir, 'pom.xml').isFile() : "nothing copied from ${root}"
// What the poms were before generating, for verify.groovy (the checkout may change while this runs).
new File(basedir, 'root-pom.before').bytes = new File(copy, 'pom.xml').bytes
new File(basedir, 'functions-pom.before').bytes = new File(basedir, 'pom.xml').bytes
return true
