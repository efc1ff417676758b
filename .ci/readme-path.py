#!/usr/bin/env python3
"""Runs the root README's newcomer path as written: the blocks marked `<!-- run by: .ci/run: STEP -->`, in the order
of the STEP names given, each in a fresh bash at the repository root (`cd` carries over inside a block only).

Every command must exit 0, except `tollgate review`, which exits 1 when it denied something (the README says so);
its output must then end with the summary line the README quotes (`N manifests: ...`). The first failing command
stops the walk: its exit code is the script's.

    .ci/readme-path.py "main job" "new function" "tests"
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = re.compile(r"^<!-- run by: \.ci/run: ([a-z ]+) -->$")
SUMMARY = re.compile(r"`(\d+ manifests: [^`]+)`")


def blocks(readme):
    lines = readme.read_text().splitlines()
    found = {}
    for i, line in enumerate(lines):
        m = MARK.match(line.strip())
        if not m:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            sys.exit(f"{readme}:{i + 1}: the mark '{m.group(1)}' is not directly followed by a fenced block")
        end = next((j for j in range(i + 2, len(lines)) if lines[j].startswith("```")), None)
        if end is None:
            sys.exit(f"{readme}:{i + 2}: the block '{m.group(1)}' is not closed")
        found[m.group(1)] = (i + 2, commands(lines[i + 2:end]))
    return found, lines


def commands(body):
    """The block's commands: continuation lines joined, blank and comment-only lines dropped."""
    out, current = [], ""
    for line in body:
        if not current and (not line.strip() or line.strip().startswith("#")):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        out.append((current + line).strip())
        current = ""
    if current:
        out.append(current.strip())
    return out


def run(step, line, cmds, summary):
    # One bash per block, so `cd` and variables carry over between its commands; each command's exit code and last
    # output line come back on a line of their own, so the walk can tell which command failed.
    script = ["set -o pipefail", "last=$(mktemp)"]
    for n, cmd in enumerate(cmds):
        script.append(f"echo '::start {n}'")
        # Not a pipeline (its parts run in subshells, where a `cd` would not carry over): tee by process substitution.
        script.append(f"{{ {cmd}\n}} > >(tee \"$last.out\") 2>&1; rc=$?; wait $!; "
                      f"echo \"::rc {n} $rc $(tail -1 \"$last.out\")\"")
    script.append('rm -f "$last" "$last.out"')
    proc = subprocess.Popen(["bash", "-c", "\n".join(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    results = {}
    for out in proc.stdout:
        out = out.rstrip("\n")
        if out.startswith("::start "):
            print(f">>> {cmds[int(out.split()[1])]}", flush=True)
        elif out.startswith("::rc "):
            _, n, rc, *last = out.split(" ", 3)
            results[int(n)] = (int(rc), last[0] if last else "")
        else:
            print(out, flush=True)
    proc.wait()
    for n, cmd in enumerate(cmds):
        if n not in results:
            print(f"README.md:{line}: step '{step}' stopped before: {cmd}", file=sys.stderr)
            return 1
        rc, last = results[n]
        review = "tollgate review" in cmd
        if rc != 0 and not (review and rc == 1):
            print(f"README.md:{line}: step '{step}': exit {rc} from: {cmd}", file=sys.stderr)
            return rc
        if review and summary and summary not in last:
            print(f"README.md:{line}: step '{step}': the README says the review ends with '{summary}', "
                  f"it ended with '{last}'", file=sys.stderr)
            return 1
    print(f"README path, step '{step}': its {len(cmds)} commands ran as written, with the outcome the README gives",
          flush=True)
    return 0


def main(steps):
    readme = ROOT / "README.md"
    found, lines = blocks(readme)
    missing = [s for s in steps if s not in found]
    if missing:
        sys.exit(f"README.md: no block marked <!-- run by: .ci/run: STEP --> for {missing}; marked: {list(found)}")
    text = "\n".join(lines)
    summary_match = SUMMARY.search(text)
    for step in steps:
        line, cmds = found[step]
        rc = run(step, line, cmds, summary_match.group(1) if summary_match else None)
        if rc != 0:
            return rc
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["main job", "new function", "tests"]))
