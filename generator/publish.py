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
import sys
import tempfile
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

from generator.errors import UsageError
from generator.version import project_version


class PublishError(Exception):
    """A step of publishing failed; the message says which and what to do."""


GITHUB = re.compile(r"^(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)([^/]+)/([^/]+?)(?:\.git)?/?$")


def _git(*args: str, cwd: Optional[Path] = None, git_dir: Optional[Path] = None, env=None,
         check: bool = True) -> subprocess.CompletedProcess:
    command = ["git"] + ([f"--git-dir={git_dir}"] if git_dir else []) + list(args)
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if check and result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise PublishError(f"`git {' '.join(args[:2])}` failed: {detail[-1] if detail else 'exit ' + str(result.returncode)}")
    return result


def remote_url(remote: str, checkout: Path) -> str:
    """A remote's URL: a remote of the checkout by name, else the argument itself (URL or path)."""
    if remote and not any(c in remote for c in "/:\\"):
        found = _git("remote", "get-url", remote, cwd=checkout, check=False)
        if found.returncode == 0 and found.stdout.strip():
            return found.stdout.strip()
        raise UsageError(f"PUBLISH_REMOTE={remote!r} is not a remote of {checkout} "
                         "(see `git remote -v`); name a remote, a URL or a path to a repository")
    if not remote:
        raise UsageError("no remote: set PUBLISH_REMOTE to a remote name, a URL or a path to a repository")
    if "://" not in remote and ":" not in remote.split("/")[0]:  # a path: make it absolute for git
        return str(Path(remote).resolve())
    return remote


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
    parts = urlsplit(site_url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UsageError(f"SITE_URL={site_url!r} is not an http(s) address of a directory, like https://example.org/llm/")
    return site_url if site_url.endswith("/") else site_url + "/"


def mkdocs_build(site_dir: Path, dest: Path, site_url: Optional[str], timeout: Optional[float] = None):
    """`mkdocs build --strict` of site_dir/mkdocs.yml into dest, for the address `site_url`
    (SITE_URL; None builds without one, whatever the environment says, as `make docs`
    does on a machine without SITE_URL). Returns the finished process."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("SITE_URL", None)
    if site_url is not None:
        env["SITE_URL"] = site_url
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(site_dir / "mkdocs.yml"),
                           "--site-dir", str(dest)], capture_output=True, text=True, env=env, timeout=timeout)


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


def push_tree(built: Path, url: str, branch: str, message: str, env: dict) -> str:
    """Commit `built` on top of url's `branch` (when it exists) and push; returns the commit."""
    with tempfile.TemporaryDirectory(prefix="publish-") as temp:
        git_dir = Path(temp) / "repo.git"
        _git("init", "--quiet", "--bare", str(git_dir))
        ref = f"refs/heads/{branch}"
        listed = _git("ls-remote", url, ref, git_dir=git_dir, check=False)
        if listed.returncode != 0:
            detail = listed.stderr.strip().splitlines()
            raise PublishError(f"cannot reach {url}: {detail[-1] if detail else 'git ls-remote failed'}; "
                               "check PUBLISH_REMOTE and your access to it")
        parent = []
        if listed.stdout.strip():
            _git("fetch", "--quiet", "--no-tags", url, f"+{ref}:{ref}", git_dir=git_dir)
            parent = ["-p", _git("rev-parse", ref, git_dir=git_dir).stdout.strip()]
        index_env = dict(env, GIT_INDEX_FILE=str(Path(temp) / "index"))
        _git("--work-tree", str(built), "add", "--all", "--force", ".", git_dir=git_dir, env=index_env, cwd=built)
        tree = _git("write-tree", git_dir=git_dir, env=index_env).stdout.strip()
        commit = _git("commit-tree", tree, *parent, "-m", message, git_dir=git_dir, env=env).stdout.strip()
        pushed = _git("push", "--quiet", url, f"{commit}:{ref}", git_dir=git_dir, env=env, check=False)
        if pushed.returncode != 0:
            detail = pushed.stderr.strip().splitlines()
            raise PublishError(f"pushing to {url} {branch} failed: {detail[-1] if detail else 'git push failed'}; "
                               "fetch the branch, or check your rights to push to it")
        return commit


def publish(checkout: Path, site_dir: Path, remote: str, branch: str, site_url: str) -> tuple[str, str, str]:
    """Build and push; returns (site URL, remote URL, commit)."""
    if shutil.which("git") is None:
        raise UsageError("publishing needs git on PATH")
    if not re.fullmatch(r"[A-Za-z0-9._/-]+", branch or "") or ".." in branch or branch.startswith(("/", "-")):
        raise UsageError(f"PUBLISH_BRANCH={branch!r} is not a branch name")
    url = remote_url(remote, checkout)
    site_url = site_url_for(site_url, url)
    with tempfile.TemporaryDirectory(prefix="publish-site-") as temp:
        built = Path(temp) / "site"
        build_site(site_dir, built, site_url)
        message = (f"Publish the site for {site_url}\n\nBuilt from {_source_commit(checkout)} "
                   f"by llm-status-codes {project_version()}.")
        commit = push_tree(built, url, branch, message, _identity(checkout))
    return site_url, url, commit
