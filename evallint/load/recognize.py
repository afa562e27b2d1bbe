"""Which kind a file is (eval suite, dataset, its sidecar, Agent Skills evals file, targets or config file,
assertion template, or none of evallint's): one table, read in order, the first row that holds giving the kind.
A row names the syntax it is for (YAML, JSON lines for a ``.jsonl`` file, or JSON for a ``.json`` file), the kind
the path gives (``files.PathKind``; ``ANY``: any) and what else must hold: what the file holds (its parsed top
level, its first line, or only its first bytes when it is over the size cap or cannot be decoded) or what it held
in the last commit.

What a row asks is looked at only when the row is read, and once (``Evidence``): a results file is
told from a dataset by its first line, never read whole, and the last commit is asked only when nothing
before it decided."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Optional

from evallint.load import eval_patterns, files, history
from evallint.load.case_files import CASE_FILES, folder_case, inside_folder_of_tests, naming_suite
from evallint.load.files import (
    AGENTV_FOLDER, CONFIG, DATASET, EVAL, SIDECAR, SKILLS, TARGETS, TEMPLATE,
)
from evallint.load.evidence import JSON, JSONL, YAML, Evidence
from evallint.load.source import PEEK, Content, Source
from evallint.load.named_data import SUITE_NAMES, named_as_data, suite_at_or_below, suite_named
from evallint.load.view import current

ANY = "any"  # a row for whatever kind the path gives


def _was_ours(e: Evidence) -> bool:
    """Whether the file was an eval suite (a ``.jsonl`` file: a dataset) in the last commit, by these rows read over
    what it held then: all of a YAML file, the first line of a dataset (wherever it lies: only what it held
    counts)."""
    if e.root is None:
        return False
    if e.path.endswith(".jsonl"):
        head = history.head_bytes(e.path, e.root, PEEK, prefix=True)
        return head is not None and kind_of(Evidence(e.path, Content.first_bytes(head), jsonl=True)) == DATASET
    if not e.path.endswith(files.YAML_SUFFIXES):
        return False
    data = history.head_bytes(e.path, e.root, e.max_bytes)
    if data is None:
        return False
    then = Evidence(e.path, Content.given(data, e.max_bytes), e.path_kind, jsonl=False)
    return then.parsed_ok and kind_of(then) == EVAL


# what the rows ask, beyond the syntax and the path's kind

def _targets_schema(e: Evidence) -> bool:
    return e.schema is not None and e.schema.startswith("agentv-targets-v2")


def _config_schema(e: Evidence) -> bool:
    return e.schema == "agentv-config-v2"


def _targets_in_targets_file(e: Evidence) -> bool:
    """A targets file the runner may read: it looks for one in the folder of the suite it runs and each folder above
    it up to the root (and where --targets says), so another tool's 'targets.yaml' (no target with a 'provider')
    in a folder holding no suite, nor above one, is left alone, unless named on the command line."""
    if not (isinstance(e.data, dict) and "targets" in e.data and os.path.basename(e.path) in files.TARGETS_NAMES):
        return False
    folder = os.path.dirname(os.path.abspath(e.path))
    targets = e.data["targets"]
    return e.explicit or e.root is None or folder == e.root or e.max_bytes <= 0 or (
        isinstance(targets, list) and any(isinstance(target, dict) and "provider" in target for target in targets)) \
        or suite_at_or_below(folder, e.root, e.max_bytes)


def _eval_schema(e: Evidence) -> bool:
    return e.schema == "agentv-eval-v2"


def _evalcases(e: Evidence) -> bool:
    return isinstance(e.data, dict) and any(k in e.data for k in files.EVALCASES_KEYS)


def _discovered_suite(e: Evidence) -> bool:
    """Named 'eval.yaml' (or '.yml'), as the agentv command runs in any folder it is given (apps/cli eval/shared.ts:
    its glob matches the name's case), or a path its project's ``eval_patterns`` match, which the command's discovery
    runs; and holding a suite: another tool's 'eval.yaml' (a Hydra config) is left alone."""
    named = os.path.basename(e.path) in SUITE_NAMES[2:] or \
        e.root is not None and e.max_bytes > 0 and eval_patterns.discovered(e.path, e.root, e.max_bytes)
    return named and e.parsed_ok and files.holds_suite(e.data)


def _foreign(e: Evidence) -> bool:
    return e.parsed_ok and files.is_foreign(e.data)


def _agentv_schema(e: Evidence) -> bool:
    return e.schema is not None and e.schema.startswith("agentv-")


def _named_unparsed(e: Evidence) -> bool:
    return e.explicit and not e.parsed_ok


def _later_tests(e: Evidence) -> bool:
    """A mapping with AgentV 4.42.4's 'tests': the runner reads such a file as a suite (it reads a dataset's
    sidecar only when it is given the dataset)."""
    return isinstance(e.data, dict) and files.LATER_CASES_KEY in e.data


def _named_tests(e: Evidence) -> bool:
    """Named on the command line, with a list of tests under 'tests' (AgentV 4.42.4 loads any YAML file it is
    given, whatever its name)."""
    return e.explicit and isinstance(e.data, dict) and isinstance(e.data.get(files.LATER_CASES_KEY), list)


def _template_keys(e: Evidence) -> bool:
    """A mapping of an assertion template's keys alone (``files.TEMPLATE_KEYS``): a template that a suite
    includes by its path, wherever it lies."""
    return files.holds_template(e.data)


def _workspace_keys(e: Evidence) -> bool:
    """A mapping of a workspace's keys alone (``files.WORKSPACE_KEYS``): a workspace file that a suite names, not
    linted on its own (what it holds is reported where a suite names it, as the runner reads it for that suite)."""
    return files.holds_workspace(e.data)


def _sniffed(e: Evidence) -> bool:
    """A text that fails to parse, or the first bytes of a file over the size cap, mention 'evalcases' (or
    a near miss) or an ``agentv-`` schema."""
    if e.content.partial:
        return files.looks_like_agentv((e.content.prefix() or b"").decode("utf-8", "replace"))
    return e.parsed is not None and not e.parsed.ok and files.looks_like_agentv(e.source.text)


def _was_suite(e: Evidence) -> bool:
    """It was an eval suite in the last commit, and its text was read (or it is over the size cap)."""
    return (e.parsed is not None or e.content.partial) and _was_ours(e)


def _skills_key(e: Evidence) -> bool:
    """A JSON object with 'evals' (or a near miss of it) at its top."""
    return isinstance(e.data, dict) and any(key in e.data for key in files.SKILLS_NEAR_MISSES)


def _skills_named(e: Evidence) -> bool:
    """An ``evals.json`` that is no JSON (why is reported), or that was named on the command line."""
    return e.explicit or (e.parsed is not None and not e.parsed.ok)


def _unread(e: Evidence) -> bool:
    return e.unread


def _named_unread(e: Evidence) -> bool:
    return e.explicit and e.unread


def _case_line(e: Evidence) -> bool:
    """The first line is an eval case: an object with 'id' and a case's keys (results rows have 'eval_id')."""
    line = e.first_line
    if line is None or ('"id"' not in line and "\\u" not in line):  # no 'id' key can be in it
        return False
    first = e.first_value
    return isinstance(first, dict) and "id" in first and any(k in first for k in files.DATASET_SIGNS)


def _test_gone_wrong(e: Evidence) -> bool:
    """The first line is a test the runner skips or throws on: an object with a key of a test (no 'id', or only keys
    a dataset's line does not hold) and no results row's 'eval_id', or a list (of the tests it meant to hold)."""
    first = e.first_value
    if isinstance(first, list):
        return all(isinstance(item, dict) and "eval_id" not in item for item in first)
    return isinstance(first, dict) and "eval_id" not in first and any(k in first for k in files.CASE_SIGNS)


def _beside_sidecar(e: Evidence) -> bool:
    """A dataset's sidecar (a YAML file of its name) stands beside it, and its first line is a test gone wrong
    (``_test_gone_wrong``): the one line does not hide the dataset."""
    return _test_gone_wrong(e) and files.has_sidecar(os.path.abspath(e.path))


def _named_by_a_suite(e: Evidence) -> bool:
    """An AgentV 4.42.4 suite names it from its 'tests': a file of external tests, whatever its lines hold."""
    return e.root is not None and e.max_bytes > 0 and naming_suite(e.path, e.root, e.max_bytes) is not None


def _tests_named_by_a_suite(e: Evidence) -> bool:
    """A YAML list that an AgentV 4.42.4 suite names from its 'tests': a file of external tests."""
    return isinstance(e.data, list) and _named_by_a_suite(e)


def _case_of_a_folder(e: Evidence) -> bool:
    """The case file of a subfolder of a folder of tests that an AgentV 4.42.4 suite names from its 'tests'
    (``case_files``): one test, whatever the file holds (the runner rejects the suite when it is no mapping)."""
    return e.root is not None and e.max_bytes > 0 and folder_case(e.path, e.root, e.max_bytes)


def _no_suite(e: Evidence) -> bool:
    """What the file holds is no suite: no 'tests' (a list or a path) and no 'evalcases'. Such a file is no eval file
    when the rows below say the runner reads it as something else, or never."""
    return e.parsed_ok and not files.holds_suite(e.data)


def _unread_case_file(e: Evidence) -> bool:
    """No suite, and a mapping named as a folder of tests' case file that no suite reads so (one shadowed by the
    case.yaml beside it, or of a folder no suite names: a suite's case file is read by ``_case_of_a_folder``)."""
    return _no_suite(e) and isinstance(e.data, dict) and os.path.basename(e.path) in CASE_FILES


def _in_agentv_folder(e: Evidence) -> bool:
    """No suite, in an '.agentv' folder below the root: the runner reads its config and targets files alone (and
    its templates, by their own rows)."""
    inside = os.path.relpath(os.path.abspath(e.path), e.root) if e.root else e.path
    return _no_suite(e) and AGENTV_FOLDER in os.path.normpath(os.path.dirname(inside)).split(os.sep)


def _in_folder_of_tests(e: Evidence) -> bool:
    """No suite, below a folder of tests a suite names: the runner reads each subfolder's case file there alone (what
    it does not read, a note, a flat test, a file of a case's workspace, is reported at the suite's 'tests')."""
    return _no_suite(e) and e.root is not None and e.max_bytes > 0 and inside_folder_of_tests(e.path, e.root, e.max_bytes)


def _named_as_data(e: Evidence) -> bool:
    """A suite names it, or a folder it lies in, as data, a workspace or a template (``named_data``): what the runner
    makes of it is reported at the suite. So is a file it cannot read or parse (the runner sends it as written), or
    one holding a suite, when it is neither named as the runner's discovery names a suite nor on the command line
    (the runner reads such a file as a suite)."""
    no_suite = e.parsed_ok and not files.holds_suite(e.data)
    return (no_suite or not e.explicit and not suite_named(e.path, e.root, e.max_bytes)) and _data_of_a_suite(e)


def _data_of_a_suite(e: Evidence, directly: bool = False) -> bool:
    return e.root is not None and e.max_bytes > 0 and named_as_data(e.path, e.root, e.max_bytes, directly)


def _settings_named_as_data(e: Evidence) -> bool:
    """A file the path gives for AgentV's settings (a targets or config file, an Agent Skills evals file) that a
    suite names as data, or in a workspace template a suite names (the folder the agent works in), where no suite
    lies at or below the folder holding its '.agentv' (an evals file's own folder): the runner looks for its own
    settings from the suite's folder up (and runs an evals file it is given); not when named on the command line."""
    if not any(e.gives(kind) for kind in (TARGETS, CONFIG, SKILLS)) or e.explicit or e.root is None or e.max_bytes <= 0:
        return False
    absolute = os.path.abspath(e.path)
    project = os.path.dirname(absolute) if e.gives(SKILLS) else os.path.dirname(os.path.dirname(absolute))
    # whether a suite lies below is asked first: in a project it stops at the first suite, without the scan
    return not suite_at_or_below(project, e.root, e.max_bytes) and (
        named_as_data(e.path, e.root, e.max_bytes, directly=True)
        or named_as_data(e.path, e.root, e.max_bytes, template=True))


def _sidecar_named_as_data(e: Evidence) -> bool:
    """A suite names it itself as data (a workspace file): a dataset in a folder a command names keeps its sidecar."""
    return _data_of_a_suite(e, directly=True)


def _dataset_named_as_data(e: Evidence) -> bool:
    """A suite names it itself as data, not as a file of tests, and not the command line (one in a folder a command
    names is still a dataset); asked last (``Row.asked_last``), of one the rows below take for a dataset (by its path
    or first line): a results file's kind never depends on what the suites around it name."""
    dataset_like = e.gives(EVAL) or e.gives(DATASET) or e.unread or _case_line(e)
    return not e.explicit and dataset_like and _data_of_a_suite(e, directly=True) and not _named_by_a_suite(e)


def _sidecar_of_a_dataset(e: Evidence) -> bool:
    """The ``.jsonl`` file of its name may be a dataset: its first line is a case, or not known to be JSON (blank,
    broken: a dataset being written), not another JSON value (a results file's row, an array of numbers, which the
    runner never reads as a dataset), and no suite names it as data (an input file). Without the root, as the path
    gives."""
    dataset = os.path.splitext(os.path.abspath(e.path))[0] + ".jsonl"
    if e.root is None or e.max_bytes <= 0:
        return True
    source = current().source(dataset, e.root, e.max_bytes)
    if not isinstance(source, Source):
        return True
    lines = Evidence(dataset, Content.decoded(source), files.DATASET, jsonl=True, git_root=e.root, max_bytes=e.max_bytes)
    return (lines.first_value is None or _case_line(lines) or _test_gone_wrong(lines)) and \
        not _dataset_named_as_data(lines)


def _broken_line(e: Evidence) -> bool:
    """The first line is not JSON: a broken first case does not hide a dataset."""
    return bool(e.first_line and e.first_line.strip()) and e.first_value is None


def _named_broken_line(e: Evidence) -> bool:
    return e.explicit and _broken_line(e)


def _case_keys_in_long_line(e: Evidence) -> bool:
    """Of a first line longer than the first bytes of a file over the cap, what there is names an 'id' and
    a case's keys, and no 'eval_id'."""
    head = e.content.head()
    return e.first_line is None and e.content.partial and head is not None and b'"id"' in head \
        and b'"eval_id"' not in head and any(b'"' + sign.encode() + b'"' in head for sign in files.DATASET_SIGNS)


def _was_dataset(e: Evidence) -> bool:
    """It was a dataset in the last commit, and its first line is known (or it is over the size cap, or
    cannot be read at all)."""
    return (e.first_line is not None or e.content.partial or e.content.head() is None) and _was_ours(e)


@dataclass(frozen=True)
class Row:
    """A row of the table: for a file of ``syntax`` whose path gives ``place``, when ``evidence`` holds, the
    kind is ``kind``. A row of no kind ``asked_last`` is asked only once the rows below it give the file a kind: what
    it says matters only then, and what it asks costs more than they do."""

    syntax: str
    place: Optional[str]  # the kind the path gives, or ANY
    evidence: Optional[Callable[[Evidence], bool]]  # what else must hold; None: nothing
    kind: Optional[str]  # None: not a file of evallint's
    asked_last: bool = False

    def applies(self, e: Evidence) -> bool:
        return self.syntax == e.syntax and (self.place == ANY or e.gives(self.place))

    def holds(self, e: Evidence) -> bool:
        return self.applies(e) and (self.evidence is None or self.evidence(e))


ROWS = (
    # syntax  path gives  what else holds            kind
    Row(YAML,  ANY,      _settings_named_as_data,   None),  # a workspace template's settings files
    Row(YAML,  ANY,      _targets_schema,           TARGETS),
    Row(YAML,  ANY,      _config_schema,            CONFIG),
    Row(YAML,  TARGETS,  None,                      TARGETS),
    Row(YAML,  CONFIG,   None,                      CONFIG),
    Row(YAML,  TEMPLATE, None,                      TEMPLATE),  # whatever it holds: the runner reads it as one
    Row(YAML,  SIDECAR,  _later_tests,              EVAL),  # a suite beside a dataset of its name: read as a suite
    Row(YAML,  SIDECAR,  _tests_named_by_a_suite,   EVAL),  # a suite's file of tests, whatever it stands beside
    Row(YAML,  SIDECAR,  _case_of_a_folder,         EVAL),  # a test of a folder of tests, whatever it stands beside
    Row(YAML,  SIDECAR,  _sidecar_named_as_data,    None),  # data of a suite, its workspace file
    Row(YAML,  SIDECAR,  _sidecar_of_a_dataset,     SIDECAR),
    Row(YAML,  ANY,      _targets_in_targets_file,  TARGETS),
    Row(YAML,  ANY,      _eval_schema,              EVAL),
    Row(YAML,  ANY,      _evalcases,                EVAL),
    Row(YAML,  ANY,      _discovered_suite,         EVAL),  # 'eval.yaml' or a path eval_patterns match, anywhere
    Row(YAML,  ANY,      _tests_named_by_a_suite,   EVAL),  # a file of external tests (``case_files``)
    Row(YAML,  ANY,      _case_of_a_folder,         EVAL),  # a test of a folder of tests (``case_files``)
    Row(YAML,  ANY,      _template_keys,            TEMPLATE),  # a template an include names by its path
    Row(YAML,  ANY,      _workspace_keys,           None),  # a workspace file a suite names by its path
    Row(YAML,  EVAL,     _unread_case_file,         None),  # a case file no suite reads
    Row(YAML,  EVAL,     _in_agentv_folder,         None),  # a file of AgentV's settings folder it does not read
    Row(YAML,  EVAL,     _in_folder_of_tests,       None),  # a file of a folder of tests it does not read
    Row(YAML,  EVAL,     _named_as_data,            None),  # data of a suite, its workspace or template
    Row(YAML,  EVAL,     _foreign,                  None),  # a compose file, a CI workflow where suites are
    Row(YAML,  EVAL,     None,                      EVAL),
    Row(YAML,  ANY,      _agentv_schema,            EVAL),  # an unknown AgentV schema id: EV012 says so
    Row(YAML,  ANY,      _foreign,                  None),
    Row(YAML,  ANY,      _named_unparsed,           EVAL),  # named on the command line: why it fails is reported
    Row(YAML,  ANY,      _named_tests,              EVAL),
    Row(YAML,  ANY,      _sniffed,                  EVAL),
    Row(YAML,  ANY,      _was_suite,                EVAL),
    Row(JSON,  ANY,      _settings_named_as_data,   None),
    Row(JSON,  SKILLS,   _unread,                   SKILLS),  # not read (EV002, EV006, EV009): reported
    Row(JSON,  ANY,      _named_unread,             None),  # another JSON file named: a file eval files use
    Row(JSON,  ANY,      _skills_key,               SKILLS),
    Row(JSON,  SKILLS,   _skills_named,             SKILLS),  # another tool's evals.json is left alone in a walk
    Row(JSONL, ANY,      _dataset_named_as_data,    None, asked_last=True),  # data of a suite: an input file
    Row(JSONL, EVAL,     _unread,                   EVAL),  # not read (EV002, EV006, EV009): reported as include says
    Row(JSONL, ANY,      _named_unread,             DATASET),
    Row(JSONL, ANY,      _case_line,                DATASET),  # results files' rows have 'eval_id', not 'id'
    Row(JSONL, ANY,      _named_by_a_suite,         DATASET),  # a file of external tests (``case_files``)
    Row(JSONL, EVAL,     None,                      DATASET),
    Row(JSONL, ANY,      _beside_sidecar,           DATASET),
    Row(JSONL, DATASET,  _broken_line,              DATASET),
    Row(JSONL, ANY,      _named_broken_line,        DATASET),
    Row(JSONL, ANY,      _case_keys_in_long_line,   DATASET),
    Row(JSONL, ANY,      _was_dataset,              DATASET),
)


def kind_of(evidence: Evidence, rows: tuple = ROWS) -> Optional[str]:
    """The kind the first row that holds gives; None (not a file of evallint's) when none holds."""
    for at, row in enumerate(rows):
        if row.asked_last and row.applies(evidence):
            below = kind_of(evidence, rows[at + 1:])
            return None if below is None or row.holds(evidence) else below
        if row.holds(evidence):
            return row.kind
    return None


def content_kind(path: str, data, place: Optional[str]) -> Optional[str]:
    """The kind that a parsed YAML top level gives a file whose path gives ``place``, the last commit not
    asked."""
    return kind_of(Evidence.of_data(path, data, place))
