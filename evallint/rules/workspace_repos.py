"""The repos of an AgentV 4.42 workspace: which the loader keeps, which the run never clones (EV128), and the
keys of a repo the loader rejects (EV115) or that disagree (EV110)."""
from __future__ import annotations

import os
import posixpath
import re
from typing import Iterator

from evallint.diagnostics import FIRST_KEY, KEY, Finding
from evallint.load.environment import refers
from evallint.load.view import current
from evallint.rules.common import Site, check_unknown_keys, finding, is_finite_number, is_text
from evallint.suggest import quote

REMOVED_REPO = {"source": "repo", "checkout": "commit, base_commit and ancestor", "clone": "sparse"}
# what the runner takes for GitHub's 'org/name' shorthand and clones from github.com (repo-identity.ts)
GITHUB_SHORTHAND = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\Z")


def kept_repos(workspace: dict) -> bool:
    """Whether the loader keeps a repo of the workspace: one that sets something (repo-config-parser.ts)."""
    repos = workspace.get("repos")
    return isinstance(repos, list) and any(
        isinstance(repo, dict) and (any(is_text(repo.get(key)) for key in ("path", "repo", "commit", "base_commit"))
                                    or is_finite_number(repo.get("ancestor"))
                                    or any(isinstance(item, str) for item in repo.get("sparse") or ()))
        for repo in repos)


def repos_never_cloned(workspace: dict, place) -> Iterator:
    """EV128 for each repo without a 'repo', or without a 'path' (a blank one the loader drops), of a workspace that
    runs in no container: the run clones only the repos that name both, and passes over the others without a word
    (repo-manager.ts materialize). Not for one with a removed key, for which the loader rejects the file (EV115)."""
    repos = workspace.get("repos")
    if not isinstance(repos, list) or _may_run_in_docker(workspace, place):
        return
    for i, repo in enumerate(repos):
        if not isinstance(repo, dict) or any(key in repo for key in REMOVED_REPO):
            continue
        if not is_text(repo.get("repo")):
            where = f" at {quote(repo['path'])}" if is_text(repo.get("path")) else ""
            yield finding("EV128", f"workspace repo without a 'repo': the runner clones nothing{where}, without a word, "
                          "and the agent works without it (only a Docker workspace's repos may go without one); name "
                          "the repository to clone in 'repo'", place.at + ("repos", i), FIRST_KEY)
        elif not is_text(repo.get("path")):
            yield finding("EV128", f"workspace repo {quote(repo['repo'])} without a 'path': the runner clones nothing, "
                          "without a word, and the agent works without it; give the folder of the workspace to clone it "
                          "into in 'path'", place.at + ("repos", i), FIRST_KEY)
        else:
            yield from _outside(repo["path"], place.at + ("repos", i, "path"))


def _outside(path: str, at: tuple) -> Iterator:
    """EV110 for a repo 'path' that is absolute or leads out of the workspace: outside a container the runner clones
    the repo at the workspace's path joined with it (repo-manager.ts materialize), so an absolute path lands inside
    the workspace under its own name and a '../' one beside the workspace, where the agent does not work."""
    if refers(path):
        return
    inside = posixpath.relpath(posixpath.normpath("/workspace/" + path), "/workspace")  # as Node's path.join, untrimmed
    if posixpath.isabs(path):
        yield finding("EV110", f"repo 'path' {quote(path)} is absolute: outside a Docker workspace the runner clones "
                      f"the repo inside the workspace at {quote('<workspace>/' + inside)}, not at {quote(path)}; give a "
                      "folder of the workspace, relative to it", at)
    elif inside == ".." or inside.startswith("../"):
        yield finding("EV110", f"repo 'path' {quote(path)} leads out of the workspace: the runner clones the repo at "
                      f"{quote('<workspace>/' + path)}, outside the folder the agent works in; give a folder of the "
                      "workspace, relative to it", at)


def _may_run_in_docker(workspace: dict, place) -> bool:
    """Whether each workspace the loader makes with the repos of ``workspace`` may have a 'docker': a test's takes
    the suite's, and a test without repos of its own takes the suite's repos and its own 'docker'
    (yaml-parser.ts mergeWorkspaceConfigs); a workspace file may give one, and so may whatever is not a suite's or a
    test's own workspace here."""
    document = place.document if isinstance(place.document, dict) else {}
    if workspace.get("docker") is not None:
        return True
    if place.at[:1] == ("tests",) and len(place.at) == 3:
        suite = document.get("workspace")
        return isinstance(suite, str) or (isinstance(suite, dict) and suite.get("docker") is not None)
    if place.at == ("workspace",) and isinstance(document.get("tests"), list):
        return not any(_takes_the_suites_repos_without_docker(test) for test in document["tests"])
    return True


def _takes_the_suites_repos_without_docker(test) -> bool:
    own = test.get("workspace") if isinstance(test, dict) else None
    return isinstance(test, dict) and (own is None or (
        isinstance(own, dict) and own.get("repos") is None and own.get("docker") is None))


def removed_keys(data: dict, removed: dict, at: tuple, where: str) -> Iterator:
    """EV115 for each key of ``removed`` (a removed key -> what replaces it) that ``data``, written at ``at``, holds:
    the loader rejects the file."""
    for key, new in removed.items():
        if key in data:
            yield finding("EV115", f"'{key}' in {where} is a removed key and the runner rejects the file; write '{new}'",
                          at + (key,), KEY)


def check_repo(repo: dict, place) -> Iterator:
    """Unknown keys; removed keys (EV115) and a 'commit' and 'base_commit' that differ (EV110), for which the
    loader rejects the file."""
    yield from removed_keys(repo, REMOVED_REPO, place.at, "a workspace repo")
    yield from check_unknown_keys(repo, place.keys, place.at, "workspace repo", skip=tuple(REMOVED_REPO))
    yield from _local_as_github(repo, place)
    commit, base = (repo.get(key) for key in ("commit", "base_commit"))
    if is_text(commit) and is_text(base) and commit != base and not (refers(commit) or refers(base)):
        yield finding("EV110", f"repo 'base_commit' {quote(base)} differs from its 'commit' {quote(commit)}; the "
                      "runner rejects the file (they must match when both are set)", place.at + ("base_commit",))


def _local_as_github(repo: dict, place) -> Iterator:
    """EV110 for a 'repo' that names a folder from here ('./app', '../app') in the form of GitHub's 'org/name': the
    runner clones it from github.com, where no such repository is (repo-identity.ts resolveRepoCloneUrl)."""
    named = repo.get("repo")
    trimmed = named.strip() if isinstance(named, str) else ""
    if GITHUB_SHORTHAND.match(trimmed) and trimmed.split("/")[0] in (".", ".."):
        yield finding("EV110", f"repo {quote(named)} is read as GitHub's 'org/name': the runner clones "
                      f"'https://github.com/{trimmed}.git', which does not exist, and the run fails; write the "
                      "folder's absolute path, or the repository's URL", place.at + ("repo",))
    elif GITHUB_SHORTHAND.match(trimmed) and not refers(trimmed):  # a folder of that name here: ``local_folder``
        yield Site("repo_folder", trimmed, place.at + ("repo",))


def local_folder(site: Site, folder: str, root: str) -> list:
    """EV110 for a repo in GitHub's 'org/name' form (``site``) that names a folder from the eval file's ``folder`` or
    the repository's ``root``: the runner clones 'https://github.com/org/name.git' all the same."""
    if not any(current().isdir(os.path.join(base, site.value)) for base in (folder, root)):
        return []
    return [Finding("EV110", f"repo {quote(site.value)} is read as GitHub's 'org/name', though a folder of that name is "
                    f"here: the runner clones 'https://github.com/{site.value}.git', not the folder; write the folder's "
                    "absolute path (or 'file://' and its path), or the repository's URL", site.path)]
