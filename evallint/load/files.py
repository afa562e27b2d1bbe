"""The kinds of files evallint lints (eval suite, JSONL dataset, its sidecar, Agent Skills evals file, targets
or config file, assertion template) and what their paths say: the kind a path gives (``PathKind``, read with
what the file holds by ``recognize``'s table), the signs of an eval suite's top level, of an assertion template's
and of other YAML, which folder is a file's repository root, and the globs of ``include`` and ``exclude``, which
are gitignore patterns (``pathspec``) anchored at the repository root unless they start with ``**/``."""
from __future__ import annotations

import os
import re
from functools import cached_property, lru_cache
from typing import Any, Optional

from evallint.load import deps
from evallint.load.paths import inside

EVAL, TARGETS, CONFIG, DATASET, SIDECAR = "eval", "targets", "config", "dataset", "sidecar"
SKILLS = "skills"  # an Agent Skills evals file, which AgentV 4.42.4 loads from any '.json' file it is given
TEMPLATE = "template"  # an assertion template (.agentv/templates/NAME.yaml), which AgentV 4.42.4 includes in grader lists
FILE_KINDS = (EVAL, TARGETS, CONFIG, DATASET, SIDECAR, SKILLS, TEMPLATE)
SUITE_FILE_KINDS = (EVAL, DATASET, SKILLS)  # the kinds of file whose model is a suite
YAML_SUFFIXES = (".yaml", ".yml")
# the folder of a project's AgentV settings (its config and targets files, its templates)
AGENTV_FOLDER = ".agentv"
# the folders discovery never looks in
SKIPPED_FOLDERS = frozenset({".git", "node_modules", "__pycache__", ".evallint_cache"})
# how many folders down from a folder above a file the suites that may name it are looked for (a suite in
# 'evals/areas/smoke/' names '../../data/x.yaml')
SUITES_BELOW = 2
# an escape that can spell any character (JSON's \uXXXX; YAML's \xXX, \uXXXX, \UXXXXXXXX): a text with one may
# spell a key or a name without writing it out
ANY_CHARACTER_ESCAPE = r"\\[xuU]"


def walked(name: str) -> bool:
    """Whether a folder of this name is looked in for eval files: none of ``SKIPPED_FOLDERS``, nor a hidden one but
    ``.agentv``."""
    return name not in SKIPPED_FOLDERS and (name[0] != "." or name == AGENTV_FOLDER)


def folders_below(view, folder: str, depth: int = SUITES_BELOW, limit: Optional[int] = None) -> Optional[list]:
    """The folders below ``folder`` in the file view ``view`` that discovery walks, ``depth`` levels down (1: its
    subfolders), the nearer first; each folder listed is noted (``deps``). None when there are more than ``limit``:
    the folders of the level that passes it are not listed."""
    out, level = [], [folder]
    for _ in range(depth):
        for above in level:
            deps.note(above)
        level = [os.path.join(above, name) for above in level for name in view.subfolders(above) if walked(name)]
        if limit is not None and len(out) + len(level) > limit:
            return None
        out += level
    return out


def walked_to(folder: str, top: str, depth: int = SUITES_BELOW) -> bool:
    """Whether ``folder`` is ``top`` or one of ``folders_below(top, depth)`` would be (absolute paths)."""
    relative = os.path.relpath(folder, top)
    parts = relative.split(os.sep)
    return relative == "." or (parts[0] != os.pardir and len(parts) <= depth and all(walked(part) for part in parts))


# the name the Agent Skills convention gives its evals file (``evals/evals.json`` beside a skill's SKILL.md), and
# the key of its list of eval cases
SKILLS_NAME, SKILLS_KEY = "evals.json", "evals"
# 'evals' and the near misses of it that make a JSON file an Agent Skills evals file, so a typo cannot hide one
SKILLS_NEAR_MISSES = (SKILLS_KEY, "eval", "Evals", "evals_")
TARGETS_NAMES, CONFIG_NAMES = ("targets.yaml", "targets.yml"), ("config.yaml", "config.yml")
EVALCASES_KEYS = ("evalcases", "evalcase", "eval_cases", "evalCases")
# keys taken for a misspelt 'evalcases' (EV101 names them, EV109 leaves them alone)
EVALCASES_NEAR_MISSES = ("evalcase", "eval_cases", "evalCases", "eval_case", "evalCase", "cases", "eval-cases")
# the top-level keys an eval v2 suite may have, besides 'evalcases' and its near misses
SUITE_KEYS = ("$schema", "description", "dataset", "execution", "target", "evaluator")
# the key of AgentV's later format, which holds its cases where eval v2 has 'evalcases'
LATER_CASES_KEY = "tests"
# the keys an assertion template has: a mapping of these alone, wherever it lies, is one (an include may name it
# by its path, ``include: ./shared/format.yaml``), as no suite holds only its default graders
TEMPLATE_KEYS = ("assertions",)
# the top-level keys of an AgentV 4.42 workspace file (a suite's 'workspace: ./ws.yaml'), removed ones included
WORKSPACE_KEYS = ("template", "isolation", "repos", "hooks", "mode", "path", "docker", "env", "static_path", "pool",
                  "static")
# top-level keys that together make a file another kind of YAML: a compose file, a CI workflow, a
# Kubernetes manifest
FOREIGN_SIGNS = (("services",), ("on", "jobs"), ("apiVersion", "kind"))


def _anchored(pattern: str) -> str:
    """A glob as a gitignore pattern anchored at the root: ``*.yaml`` and ``evals/*.yaml`` match there
    only, ``**/x.yaml`` at any depth."""
    return pattern if pattern.startswith(("/", "**/")) else "/" + pattern


@lru_cache(maxsize=64)
def glob_spec(patterns: tuple):
    """A ``pathspec.PathSpec`` of the globs (gitignore's pattern syntax: ``*``, ``?``, ``[ab]``, ``**``)."""
    import pathspec

    return pathspec.PathSpec.from_lines("gitignore", [_anchored(p) for p in patterns])


def glob_escape(path: str) -> str:
    """``path`` as a glob that matches it alone (its glob characters escaped), where the separator is ``/``."""
    if os.sep != "/":
        return path
    return "".join("\\" + c if c in "\\[]*?" else c for c in path)


def glob_match(relpath: str, patterns) -> bool:
    """Whether ``relpath`` (relative to where the globs start; a folder ends with a separator) matches
    one of the globs."""
    relpath, patterns = relpath.replace(os.sep, "/"), tuple(patterns)
    return _name_ends_as_globbed(relpath, patterns) or glob_spec(patterns).match_file(relpath)


# a glob that names a file by the end of its name at any depth ('**/*.eval.yaml'): the end, when written plainly
NAME_END_GLOB = re.compile(r"\*\*/\*([\w.-]+)")


def _name_ends_as_globbed(relpath: str, patterns) -> bool:
    """Whether a glob such as '**/*.eval.yaml' matches ``relpath`` by the end of its name: the answer the
    ``PathSpec`` gives (``_anchored`` leaves no glob a negating one, and a path with a line break, which its '**/'
    does not match, is left to it), without importing ``pathspec`` for a suite named as the default globs name one."""
    if "\n" in relpath:
        return False
    name = relpath.rstrip("/").rsplit("/", 1)[-1]
    return any(found is not None and name.endswith(found[1]) for found in map(NAME_END_GLOB.fullmatch, patterns))


def repo_root(folder: str, working: Optional[str] = None) -> str:
    """Nearest ancestor holding ``.git``; else the run's working folder (``working``, by default this process's) when
    ``folder`` is in it, as the runner takes the working folder for the root outside a repository (findRepoRoot),
    unless a folder holding ``.agentv/`` holds the working folder too (the project is that folder) or the working
    folder holds a machine's files rather than a project's: the file system's root, the home folder or a folder
    above it (every path of the machine would be in the repository, and the user's cache in what is linted); else
    the nearest holding ``.agentv/``; else the folder itself."""
    folder = os.path.abspath(folder)
    git, agentv = _roots(folder)
    here = _project_folder(folder, os.path.abspath(working or os.getcwd()))
    if git or (here and agentv and inside(here, agentv)):
        return git or agentv
    return here or agentv or folder


def _project_folder(folder: str, here: str) -> Optional[str]:
    """The working folder ``here``, when it holds ``folder`` and is a project's (``repo_root``)."""
    if here == os.path.dirname(here) or inside(os.path.expanduser("~"), here):
        return None
    return here if inside(folder, here) else None


def _roots(folder: str) -> tuple:
    """(nearest folder with .git, nearest folder with .agentv/) at or above an absolute folder; each
    folder is looked at once per run, climbing in a loop however deep the folder is."""
    return deps.memoized_upward(_roots_key, folder, _look_for_roots)


def _roots_key(folder: str) -> tuple:
    return "roots", folder


def _look_for_roots(folder: str) -> tuple:
    """A folder with .git is its own root; any other's roots are its parent's, with itself as the
    .agentv root when it has .agentv/."""
    if os.path.exists(os.path.join(folder, ".git")):
        return True, (folder, None)
    has_agentv = os.path.isdir(os.path.join(folder, AGENTV_FOLDER))
    return False, lambda above: _roots_below(above or (None, None), folder, has_agentv)


def parent_roots(folder: str) -> tuple:
    parent = os.path.dirname(folder)
    return _roots(parent) if parent != folder else (None, None)


def _roots_below(parent_roots: tuple, folder: str, has_agentv: bool) -> tuple:
    """The roots of a folder without .git, from its parent's."""
    git, agentv = parent_roots
    return git, (folder if has_agentv else agentv)


def listed_roots(folder: str, marks: set, parent_roots: tuple) -> tuple:
    """The roots of a folder the walk listed (``marks``: the names ``scan`` saw in it), kept for the run:
    the folder is not looked at again."""
    roots = (folder, None) if ".git" in marks else _roots_below(parent_roots, folder, AGENTV_FOLDER in marks)
    return deps.memoized(_roots_key(folder), lambda: roots)


class PathKind:
    """The kind a path gives, before reading (the column "path gives" of ``recognize.ROWS``): the first of
    ``PLACES`` whose pattern the path matches. A ``.jsonl`` file that ``include`` names is EVAL (a dataset whatever
    its lines hold); one where datasets are, beside a sidecar (``x.yaml`` beside ``x.jsonl``) or where ``include``
    takes YAML files for eval suites (below an ``evals/`` folder by default), is DATASET: a dataset unless its first
    line says otherwise. Which files are beside it is asked of the current file view (``view.py``).

    Each place is matched only when a question needs it: whether the path gives a kind listed before EVAL is told
    without the ``include`` globs, whose matcher's import weighs on the start of a run of one file (a suite told by
    its 'evalcases' never needs them)."""

    def __init__(self, path: str, root: str, include):
        self.path, self.root, self.include = path, root, include
        self._matched: dict = {}  # place: whether the path matches it

    @classmethod
    def told(cls, kind: Optional[str]) -> "PathKind":
        """The kind known already (None: none): no pattern is matched, nor the path made absolute."""
        known = cls("", "", ())
        known._matched = {place: place == kind for place, _ in PLACES}
        return known

    @property
    def kind(self) -> Optional[str]:
        return next((place for place, matches in PLACES if self._matches(place, matches)), None)

    def gives(self, kind: Optional[str]) -> bool:
        """Whether the path gives ``kind`` (None: none): the places listed before it are matched first."""
        for place, matches in PLACES:
            if self._matches(place, matches):
                return place == kind
            if place == kind:
                return False
        return kind is None

    @cached_property
    def _absolute(self) -> str:
        return os.path.abspath(self.path)

    def _matches(self, place: str, matches) -> bool:
        if place not in self._matched:
            self._matched[place] = matches(self._absolute, self.root, self.include)
        return self._matched[place]


def _targets_file(absolute: str, root: str, include) -> bool:
    folder, name = os.path.split(absolute)
    return os.path.basename(folder) == AGENTV_FOLDER and name in TARGETS_NAMES


def _config_file(absolute: str, root: str, include) -> bool:
    folder, name = os.path.split(absolute)
    return os.path.basename(folder) == AGENTV_FOLDER and name in CONFIG_NAMES


def holds_template(data: Any) -> bool:
    """Whether a parsed top level is an assertion template's wherever the file lies: a mapping of
    ``TEMPLATE_KEYS`` alone."""
    return isinstance(data, dict) and bool(data) and all(key in TEMPLATE_KEYS for key in data)


def holds_workspace(data: Any) -> bool:
    """Whether a parsed top level is a workspace file's: a mapping of ``WORKSPACE_KEYS`` alone."""
    return isinstance(data, dict) and bool(data) and all(key in WORKSPACE_KEYS for key in data)


def is_template(path: str) -> bool:
    """Whether ``path`` is a YAML file right in an ``.agentv/templates/`` folder: what an include of a bare name
    reads."""
    folder = os.path.dirname(os.path.abspath(path))
    return path.endswith(YAML_SUFFIXES) and os.path.basename(folder) == "templates" \
        and os.path.basename(os.path.dirname(folder)) == AGENTV_FOLDER


def _template_file(absolute: str, root: str, include) -> bool:
    return is_template(absolute)


def _beside_its_dataset(absolute: str, root: str, include) -> bool:
    """A YAML file beside a ``.jsonl`` file of its name: that dataset's sidecar."""
    if not absolute.endswith(YAML_SUFFIXES):
        return False
    from evallint.load.view import current

    sibling = os.path.splitext(absolute)[0] + ".jsonl"
    deps.note(sibling)
    return current().isfile(sibling)


def _named_by_include(absolute: str, root: str, include) -> bool:
    return absolute.endswith(YAML_SUFFIXES + (".jsonl",)) and _included(absolute, root, include)


def _where_datasets_are(absolute: str, root: str, include) -> bool:
    """A ``.jsonl`` file beside a YAML file of its name, or where ``include`` takes YAML files."""
    if not absolute.endswith(".jsonl"):
        return False
    return has_sidecar(absolute) or _included(absolute[:-len(".jsonl")] + YAML_SUFFIXES[0], root, include)


def has_sidecar(dataset: str) -> bool:
    """Whether the current file view (``view.py``) holds a YAML file of the name of the ``.jsonl`` file at
    ``dataset`` (absolute): its sidecar."""
    from evallint.load.view import current

    stem = dataset[:-len(".jsonl")]
    for suffix in YAML_SUFFIXES:
        deps.note(stem + suffix)
    return any(current().isfile(stem + suffix) for suffix in YAML_SUFFIXES)


def skills_named(path: str) -> bool:
    """Whether ``path`` is named as an Agent Skills evals file: ``evals.json``, or ``NAME.evals.json`` as
    AgentV's own examples name one."""
    name = os.path.basename(path)
    return name == SKILLS_NAME or name.endswith("." + SKILLS_NAME)


def _skills_file(absolute: str, root: str, include) -> bool:
    return skills_named(absolute)


# the path patterns, read in order
PLACES = (
    (SKILLS, _skills_file),
    (TARGETS, _targets_file),
    (CONFIG, _config_file),
    (TEMPLATE, _template_file),
    (SIDECAR, _beside_its_dataset),
    (EVAL, _named_by_include),
    (DATASET, _where_datasets_are),
)


def _included(absolute: str, root: str, include) -> bool:
    """Whether the ``include`` globs name the file at ``absolute``: a '**/' glob matched anywhere in the
    absolute path, the others from the repository root."""
    anywhere = tuple(p for p in include if p.startswith("**/"))
    rooted = tuple(p for p in include if not p.startswith("**/"))
    if anywhere and glob_match(absolute.lstrip(os.sep), anywhere):
        return True
    return bool(rooted) and glob_match(os.path.relpath(absolute, root), rooted)


_EVAL_KEYS = SUITE_KEYS + ("evalcases", LATER_CASES_KEY) + EVALCASES_NEAR_MISSES


# keys of an eval case or a test, one of which any case written as a mapping holds
CASE_SIGNS = ("id", "input", "input_messages", "expected_outcome", "outcome", "criteria", "expected_output",
              "expected_messages", "assertions", "assert")


def is_foreign(data: Any) -> bool:
    """Whether a parsed top level is another kind of YAML file: a mapping with none of an eval suite's
    keys (nor a near miss of 'evalcases', nor the later format's 'tests') and all the keys of one of
    ``FOREIGN_SIGNS``, or a list of mappings none of which holds a case's key (a list of tests does). A file
    that has an eval key is an eval file, however broken."""
    if isinstance(data, list):
        return bool(data) and all(isinstance(item, dict) and not any(k in item for k in CASE_SIGNS) for item in data)
    if not isinstance(data, dict) or any(k in data for k in _EVAL_KEYS):
        return False
    return any(all(k in data for k in sign) for sign in FOREIGN_SIGNS)


def holds_suite(data: Any) -> bool:
    """Whether ``data`` is what a suite holds: a mapping with 'tests' (a list, or the path of a file or folder of
    tests) or 'evalcases' (or a spelling the earlier format's loader reads, ``EVALCASES_KEYS``)."""
    return isinstance(data, dict) and (isinstance(data.get(LATER_CASES_KEY), (list, str))
                                       or any(key in data for key in EVALCASES_KEYS))


def is_later_format(data: Any) -> bool:
    """Whether an eval file's top level is AgentV's later format: 'tests', beside 'evalcases' or not (AgentV
    4.42.4, the release people install, reads 'tests' and drops the other list; AgentV 2.2 reads no 'tests')."""
    return isinstance(data, dict) and LATER_CASES_KEY in data


DATASET_SIGNS = ("input_messages", "input", "expected_outcome", "outcome")


def looks_like_agentv(text: str) -> bool:
    """A cheap sniff for files that fail before their kind is known."""
    return "evalcases" in text or "agentv-" in text or "eval_cases" in text or "evalCases" in text
