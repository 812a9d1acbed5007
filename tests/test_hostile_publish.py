"""What a newcomer and a hostile pull request broke around publishing, serving, vendoring and
packaging (issue 21): each case is refused with one line, or made harmless."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, run_cli

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@localhost", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True,
                          env=dict(os.environ, **GIT_ENV)).stdout


def snapshot_of_the_checkout(dest: Path) -> Path:
    """A repository holding the checkout's tracked files as they are now (edits included), one commit."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    git("init", "--quiet", "-b", "main", str(dest))
    git("add", "--all", cwd=dest)
    git("commit", "--quiet", "-m", "snapshot", cwd=dest)
    return dest


# -- 2. the README's pre-commit snippet, as written ---------------------------------------------------------


def readme_pre_commit_section() -> tuple[str, str]:
    """The README's pre-commit snippet, and the words around it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("### pre-commit")
    section = readme[start:readme.index("\n## ", start)]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1), section


@pytest.mark.slow  # pre-commit builds the hook's environment: pip installs the project
def test_the_readme_pre_commit_snippet_works_on_a_repository_without_tags(tmp_path):
    upstream = snapshot_of_the_checkout(tmp_path / "llm-status-codes")
    assert git("tag", cwd=upstream) == ""
    project = tmp_path / "consumer"
    (project / "third_party").mkdir(parents=True)
    git("init", "--quiet", str(project))
    assert run_cli("vendor", "--to", project / "third_party").code == 0
    snippet, words = readme_pre_commit_section()
    repo_line = re.search(r"repo: (\S+)", snippet).group(1)
    (project / ".pre-commit-config.yaml").write_text(snippet.replace(repo_line, str(upstream)), encoding="utf-8")
    git("add", "--all", cwd=project)
    env = dict(os.environ, **GIT_ENV, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))

    def pre_commit(*args):
        return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=project, env=env,
                              capture_output=True, text=True, timeout=900)

    if "run `pre-commit autoupdate`" in words:  # what the README tells the user to do after pasting
        updated = pre_commit("autoupdate")
        assert updated.returncode == 0, updated.stdout + updated.stderr
        head = git("rev-parse", "HEAD", cwd=upstream).strip()
        assert f"rev: {head}" in (project / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    passed = pre_commit("run", "--all-files")
    assert passed.returncode == 0 and "Passed" in passed.stdout, passed.stdout + passed.stderr
    vendored = project / "third_party" / "llm_status_codes.py"
    vendored.write_text(vendored.read_text(encoding="utf-8") + "EXTRA = 1\n", encoding="utf-8")
    failed = pre_commit("run", "--all-files")
    assert failed.returncode == 1 and "Failed" in failed.stdout and "llm_status_codes.py" in failed.stdout, failed.stdout
