"""`publish`: build the site for the URL it will be served at and push it to a git branch.

What `mkdocs gh-deploy` does, without touching the checkout: the site is built into a
temporary directory with `SITE_URL` set (the sitemap and the canonical links need the
absolute URL; every link between pages stays relative, so hosting under a sub-path
works), committed on top of the branch's current head in a temporary bare repository,
and pushed. The user's repository, index and branches are never written.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from generator.core.exits import UsageError
from generator.shipping.sitebuild import (
    checked_site_url,
    mkdocs_build,
)  # mkdocs_build: also the tests' way to build a site
from generator.core.project import project_version


class PublishError(Exception):
    """A step of publishing failed; the message says which and what to do."""


GITHUB = re.compile(r"^(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)([^/]+)/([^/]+?)(?:\.git)?/?$")


# The transports publishing may use: never `ext::` (runs a command) or another helper that
# a remote's URL could name, whatever the user's git configuration allows.
ALLOWED_PROTOCOLS = "file:git:http:https:ssh"


def _git(*args: str, cwd: Optional[Path] = None, git_dir: Optional[Path] = None, env=None,
         check: bool = True) -> subprocess.CompletedProcess:
    command = ["git"] + ([f"--git-dir={git_dir}"] if git_dir else []) + list(args)
    env = dict(env if env is not None else os.environ, GIT_ALLOW_PROTOCOL=ALLOWED_PROTOCOLS)
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise PublishError(f"`git {' '.join(args[:2])}` failed: {git_says(result)}")
    return result


def git_says(result: subprocess.CompletedProcess) -> str:
    """git's own reason, in one line: its first `fatal:`/`error:` line (the last line is
    often the end of a hint: "and the repository exists.")."""
    lines = [line.strip() for line in (result.stderr or result.stdout or "").splitlines() if line.strip()]
    for line in lines:
        for prefix in ("fatal: ", "error: "):
            if line.startswith(prefix):
                return line[len(prefix):]
    return lines[0] if lines else f"git exited with {result.returncode}"


def _refuse_option(what: str, value: str) -> None:
    if value.startswith("-"):
        raise UsageError(f"{what}={value!r} starts with '-', which git would read as an option; "
                         "name a remote, a URL or a path to a repository (./-name for a path)")


def remote_url(remote: str, checkout: Path) -> str:
    """A remote's URL: a remote of the checkout by name, else the argument itself (URL or path)."""
    if not remote:
        raise UsageError("no remote: set PUBLISH_REMOTE to a remote name, a URL or a path to a repository")
    _refuse_option("PUBLISH_REMOTE", remote)
    if not any(c in remote for c in "/:\\"):
        found = _git("remote", "get-url", "--", remote, cwd=checkout, check=False)
        if found.returncode == 0 and found.stdout.strip():
            url = found.stdout.strip()
            _refuse_option(f"the URL of remote {remote!r} (git config remote.{remote}.url)", url)
            return url
        raise UsageError(f"PUBLISH_REMOTE={remote!r} is not a remote of {checkout} "
                         "(see `git remote -v`); name a remote, a URL or a path to a repository")
    if "://" not in remote and ":" not in remote.split("/")[0]:  # a path: make it absolute for git
        return str(Path(remote).resolve())
    return remote


def branch_name(branch: str) -> str:
    """PUBLISH_BRANCH as a branch name (refs/heads/NAME means NAME), checked by git before the build."""
    name = branch[len("refs/heads/"):] if branch.startswith("refs/heads/") else branch
    valid = (bool(re.fullmatch(r"[A-Za-z0-9._/-]+", name)) and not name.startswith(("-", "refs/"))
             and name != "HEAD" and git_accepts_branch(name))
    if not valid:
        raise UsageError(f"PUBLISH_BRANCH={branch!r} is not a branch name (see `git check-ref-format --branch`); "
                         "name one like gh-pages")
    return name


def git_accepts_branch(name: str) -> bool:
    with tempfile.TemporaryDirectory(prefix="publish-ref-") as outside:  # no repository: @{-1} means nothing
        return _git("check-ref-format", "--branch", name, cwd=Path(outside), check=False).returncode == 0


def site_url_for(site_url: str, url: str) -> str:
    """The URL the site will be served at: SITE_URL, or GitHub Pages' URL for a GitHub remote."""
    if not site_url:
        match = GITHUB.match(url)
        if not match:
            raise UsageError("set SITE_URL to the address the site will be served at "
                             "(for example SITE_URL=https://example.org/llm/): the sitemap needs it")
        owner, name = match.groups()
        site_url = (f"https://{owner.lower()}.github.io/" if name.lower() == f"{owner.lower()}.github.io"
                    else f"https://{owner.lower()}.github.io/{name}/")
    return checked_site_url(site_url)


def build_site(site_dir: Path, dest: Path, site_url: str) -> None:
    result = mkdocs_build(site_dir, dest, site_url)
    if result.returncode != 0:
        log = (result.stderr or result.stdout).strip().splitlines()
        raise PublishError("the site did not build: " + (log[-1] if log else f"mkdocs exit {result.returncode}")
                           + "; run `make docs` to see the whole log")
    (dest / ".nojekyll").write_bytes(b"")  # GitHub Pages: serve the files as they are


def _identity(checkout: Path) -> dict:
    env = dict(os.environ)
    for key, setting, fallback in (("NAME", "user.name", "llm-status-codes publish"),
                                   ("EMAIL", "user.email", "llm-status-codes@localhost")):
        if not env.get(f"GIT_AUTHOR_{key}"):
            found = _git("config", setting, cwd=checkout, check=False).stdout.strip()
            env[f"GIT_AUTHOR_{key}"] = env.get(f"GIT_COMMITTER_{key}") or found or fallback
        env.setdefault(f"GIT_COMMITTER_{key}", env[f"GIT_AUTHOR_{key}"])
    return env


def _source_commit(checkout: Path) -> str:
    head = _git("rev-parse", "--short=12", "HEAD", cwd=checkout, check=False)
    return head.stdout.strip() if head.returncode == 0 else "a checkout outside git"


def list_branch(url: str, ref: str, git_dir: Optional[Path] = None) -> subprocess.CompletedProcess:
    """`git ls-remote` of one ref: the remote is reachable (PublishError otherwise)."""
    if url.startswith("/") and not Path(url).exists():  # git's words for this end in "and the repository exists."
        raise PublishError(f"cannot reach {url}: no such directory; check PUBLISH_REMOTE "
                           f"(`git init --bare {url}` creates a repository there)")
    listed = _git(
        "ls-remote", "--", url, ref, git_dir=git_dir, check=False, cwd=None if git_dir else Path(tempfile.gettempdir())
    )
    if listed.returncode != 0:
        raise PublishError(f"cannot reach {url}: {git_says(listed)}; check PUBLISH_REMOTE and your access to it")
    return listed


def push_tree(built: Path, url: str, branch: str, message: str, env: dict) -> tuple[str, bool]:
    """Commit `built` on top of url's `branch` (when it exists) and push; returns the branch's
    commit and whether it is new (not when the branch holds the same files already)."""
    with tempfile.TemporaryDirectory(prefix="publish-") as temp:
        git_dir = Path(temp) / "repo.git"
        _git("init", "--quiet", "--bare", str(git_dir))
        ref = f"refs/heads/{branch}"
        listed = list_branch(url, ref, git_dir)
        parent = ""
        if listed.stdout.strip():
            _git("fetch", "--quiet", "--no-tags", "--", url, f"+{ref}:{ref}", git_dir=git_dir)
            parent = _git("rev-parse", "--verify", f"{ref}^{{commit}}", git_dir=git_dir).stdout.strip()
        index_env = dict(env, GIT_INDEX_FILE=str(Path(temp) / "index"))
        _git("--work-tree", str(built), "add", "--all", "--force", ".", git_dir=git_dir, env=index_env, cwd=built)
        tree = _git("write-tree", git_dir=git_dir, env=index_env).stdout.strip()
        if parent and _git("rev-parse", f"{parent}^{{tree}}", git_dir=git_dir).stdout.strip() == tree:
            return parent, False  # the branch already holds these very files: no empty commit
        commit = _git("commit-tree", tree, *(["-p", parent] if parent else []), "-m", message,
                      git_dir=git_dir, env=env).stdout.strip()
        pushed = _git("push", "--quiet", "--", url, f"{commit}:{ref}", git_dir=git_dir, env=env, check=False)
        if pushed.returncode != 0:
            raise PublishError(f"pushing to {url} {branch} failed: {git_says(pushed)}; "
                               "fetch the branch, or check your rights to push to it")
        return commit, True


@dataclass(frozen=True)
class Published:
    site_url: str
    remote_url: str
    branch: str
    commit: str
    new: bool  # False: the branch held these very files already, nothing was pushed

    def summary(self) -> str:
        if self.new:
            return f"published {self.site_url} to {self.remote_url} branch {self.branch} (commit {self.commit[:12]})"
        return (f"unchanged: branch {self.branch} of {self.remote_url} already holds the site for {self.site_url} "
                f"(commit {self.commit[:12]}); nothing pushed")


def publish(checkout: Path, site_dir: Path, remote: str, branch: str, site_url: str) -> Published:
    """Check every argument, then build and push."""
    if shutil.which("git") is None:
        raise UsageError("publishing needs git on PATH")
    branch = branch_name(branch)
    url = remote_url(remote, checkout)
    site_url = site_url_for(site_url, url)
    list_branch(url, f"refs/heads/{branch}")  # before the build: a remote out of reach fails at once
    with tempfile.TemporaryDirectory(prefix="publish-site-") as temp:
        built = Path(temp) / "site"
        build_site(site_dir, built, site_url)
        message = (f"Publish the site for {site_url}\n\nBuilt from {_source_commit(checkout)} "
                   f"by llm-status-codes {project_version()}.")
        commit, new = push_tree(built, url, branch, message, _identity(checkout))
    return Published(site_url, url, branch, commit, new)
