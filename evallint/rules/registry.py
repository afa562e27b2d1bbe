"""The one registry of rules: code, name, default severity, fixable, summary.

Long documentation (what / why / example / fix) lives in ``docs/*.md`` beside
this module and is read only when asked for (``evallint rule CODE``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from evallint import __version__
from evallint.diagnostics import Severity

E, W, S = "E", "W", "S"


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    level: str  # E error, W warning, S style (off unless selected)
    fixable: bool
    summary: str

    @property
    def severity(self) -> Severity:
        return Severity.ERROR if self.level == E else Severity.WARNING

    @property
    def default_enabled(self) -> bool:
        return self.level != S


_TABLE = [
    # EV0xx: the file itself
    ("EV000", "internal-error", E, False, "evallint failed on this file; the other files are still linted"),
    ("EV001", "yaml-syntax", E, False, "the file is not well-formed YAML"),
    ("EV002", "invalid-encoding", E, False, "the file is not UTF-8 text, or holds a NUL byte"),
    ("EV003", "duplicate-key", E, False, "the same key appears twice in one mapping"),
    ("EV004", "unsafe-tag", E, False, "a YAML tag other than the standard ones"),
    ("EV005", "alias-limit", E, False, "aliases would expand beyond the limit, or refer to themselves"),
    ("EV006", "too-large", E, False, "nesting deeper than the limit, or a file or scalar over the size cap"),
    ("EV007", "multiple-documents", E, False, "more than one YAML document in the file"),
    ("EV008", "not-a-mapping", E, False, "the top level is empty, a scalar or a list where a mapping is required"),
    ("EV009", "unreadable", E, False, "the file cannot be read: permissions, FIFO or device, broken or escaping symlink"),
    ("EV010", "merge-key", E, False, "a '<<' merge key, which the runner's YAML 1.2 parser does not merge"),
    ("EV011", "later-format", W, False, "a file in AgentV's later 'tests:' format, which evallint does not check"),
    ("EV012", "unknown-schema", W, False, "'$schema' is not a known AgentV schema id"),
    ("EV013", "redundant-merge-key", W, False, "a '<<' merge key whose keys are all written out in its mapping"),
    ("EV014", "yaml11-value", E, False, "under a '%YAML 1.1' directive, a plain value the runner reads as another type"),
    ("EV099", "unused-suppression", W, False, "an '# evallint: disable' comment that suppresses nothing or is malformed"),
    # EV1xx: suite and case structure
    ("EV101", "missing-evalcases", E, False, "no 'evalcases' list"),
    ("EV102", "case-not-mapping", E, False, "an 'evalcases' item is not a mapping"),
    ("EV103", "invalid-case-id", E, True, "a case 'id' is missing, empty or not a string"),
    ("EV104", "duplicate-case-id", E, False, "two cases share an 'id'"),
    ("EV105", "missing-input", E, False, "a case has no input messages"),
    ("EV106", "missing-expected-outcome", E, False, "a case has neither 'expected_outcome' nor 'outcome'"),
    ("EV107", "invalid-expected-outcome", E, False, "'expected_outcome' is not a non-empty string"),
    ("EV108", "alias-shadowed", E, False, "an alias and its canonical key are both present; the alias is ignored"),
    ("EV109", "unknown-key", W, False, "a key that is not part of the format"),
    ("EV110", "invalid-field-type", E, False, "a known field has the wrong type"),
    ("EV111", "empty-evalcases", W, False, "'evalcases' is an empty list"),
    ("EV112", "invalid-input-shape", E, False, "'input' or 'expected_output' has a shape the shorthand does not accept"),
    ("EV113", "evaluators-shadowed", E, False, "a case has both 'execution.evaluators' and 'evaluators'; the latter is ignored"),
    ("EV114", "unknown-evaluator-kind", E, False, "a suite- or case-level 'evaluator' is not an evaluator kind"),
    ("EV115", "misspelt-key", E, False, "a key written in place of a key the runner reads, which drops what it holds"),
    ("EV116", "ignored-target", E, False, "a case's own target, or a root 'target' beside 'execution.target'"),
    ("EV117", "description-not-text", W, False, "a 'description' that is not a string (the runner never reads it)"),
    # EV2xx: messages and tool calls
    ("EV201", "invalid-role", E, False, "a message 'role' is missing or not system/user/assistant/tool"),
    ("EV202", "invalid-content", E, False, "a message 'content' is missing or of the wrong type"),
    ("EV203", "invalid-content-block", E, False, "a content block is malformed"),
    ("EV204", "invalid-tool-call", E, False, "'tool_calls' or a tool call is malformed"),
    ("EV205", "tool-call-args-key", E, True, "a tool call uses 'args' instead of 'input'"),
    ("EV206", "tool-calls-role", W, False, "'tool_calls' on a message whose role is not 'assistant'"),
    ("EV207", "message-not-mapping", E, False, "a messages-list item is not a mapping"),
    ("EV208", "role-marker-in-content", W, False, "text content holds a role marker such as '@[System]:'"),
    ("EV209", "invalid-messages-list", E, False, "'input_messages'/'expected_messages' is not a list, or is empty"),
    # EV3xx: evaluators
    ("EV301", "unknown-evaluator-type", E, False, "an evaluator 'type' is missing or unknown"),
    ("EV302", "evaluator-missing-name", E, False, "an evaluator has no 'name'"),
    ("EV303", "duplicate-evaluator-name", E, False, "two evaluators in one list share a 'name'"),
    ("EV304", "invalid-weight", E, False, "an evaluator 'weight' is not a finite number"),
    ("EV305", "negative-weight", E, False, "an evaluator 'weight' is negative"),
    ("EV306", "evaluator-not-mapping", E, False, "'evaluators' is not a list, or an item is not a mapping"),
    ("EV310", "invalid-trajectory-mode", E, False, "a tool_trajectory 'mode' is missing or unknown"),
    ("EV311", "trajectory-missing-minimums", E, False, "'mode: any_order' without 'minimums'"),
    ("EV312", "trajectory-missing-expected", E, False, "'mode: in_order'/'exact' without 'expected'"),
    ("EV313", "invalid-minimums", E, False, "'minimums' is not a mapping of tool names to counts >= 0"),
    ("EV314", "invalid-expected-tool", E, False, "an 'expected' tool entry is malformed"),
    ("EV315", "trajectory-ignored-field", E, False, "a tool_trajectory field that the chosen mode ignores"),
    ("EV320", "code-judge-missing-script", E, False, "a code_judge without 'script'"),
    ("EV321", "code-judge-invalid-script", E, False, "a code_judge 'script' that is empty or of the wrong type"),
    ("EV322", "code-judge-string-script", S, True, "a code_judge 'script' written as one shell string"),
    ("EV323", "invalid-target-access", E, False, "a code_judge 'target' that is neither true nor a mapping with max_calls >= 0"),
    ("EV330", "composite-invalid-members", E, False, "a composite without a non-empty 'evaluators' list"),
    ("EV331", "composite-invalid-aggregator", E, False, "a composite 'aggregator' that is missing or malformed"),
    ("EV332", "composite-unknown-weight", E, False, "a weighted_average weight that names no member or is not a number >= 0"),
    ("EV340", "field-accuracy-invalid-fields", E, False, "field_accuracy 'fields' missing, empty or malformed"),
    ("EV341", "field-invalid-match", E, False, "a field 'match' that is missing or unknown"),
    ("EV342", "field-invalid-aggregation", E, False, "a field_accuracy 'aggregation' that is unknown"),
    ("EV343", "field-missing-tolerance", W, False, "'match: numeric_tolerance' without a numeric 'tolerance' >= 0"),
    ("EV350", "latency-invalid-threshold", E, False, "a latency evaluator without a 'threshold' >= 0"),
    ("EV351", "cost-invalid-budget", E, False, "a cost evaluator without a 'budget' >= 0"),
    ("EV352", "token-usage-invalid-limits", E, False, "a token_usage evaluator without valid limits"),
    ("EV360", "rubric-missing-rubrics", E, False, "a rubric evaluator without a non-empty 'rubrics' list"),
    ("EV361", "invalid-rubric-item", E, False, "a rubric item that is malformed"),
    ("EV362", "duplicate-rubric-id", E, False, "two rubric items share an 'id'"),
    # EV4xx: references across files
    ("EV401", "file-not-found", E, False, "a 'type: file' content block names no file"),
    ("EV402", "file-empty", W, False, "a referenced file is empty or only whitespace"),
    ("EV403", "path-escapes-root", E, False, "a reference resolves outside the repository root"),
    ("EV404", "prompt-not-found", E, False, "a prompt that looks like a path names no file"),
    ("EV405", "prompt-missing-variables", E, False,
     "a prompt template without {{ candidate_answer }} or {{ expected_messages }}"),
    ("EV406", "prompt-unknown-variable", W, False, "a prompt template variable that the runner does not fill"),
    ("EV407", "cwd-not-found", E, False, "a code_judge 'cwd' names no folder"),
    ("EV408", "script-not-found", E, False, "the script file a code_judge or aggregator runs does not exist"),
    ("EV409", "unknown-target", E, False, "a target name that the targets file the runner would use does not define"),
    # EV5xx: .agentv/targets.yaml
    ("EV501", "missing-targets", E, False, "a targets file without a 'targets' list"),
    ("EV502", "target-not-mapping", E, False, "a 'targets' item is not a mapping"),
    ("EV503", "invalid-target-name", E, False, "a target 'name' is missing, empty or not a string"),
    ("EV504", "duplicate-target-name", E, False, "two targets share a name"),
    ("EV505", "missing-provider", E, False, "a target 'provider' is missing, empty or not a string"),
    ("EV506", "unknown-provider", W, False, "a target 'provider' that is not a known provider or alias"),
    ("EV507", "unknown-target-setting", W, False, "a setting that the target's provider does not read"),
    ("EV508", "cli-missing-command", E, False, "a 'cli' target without a command template"),
    ("EV509", "cli-unknown-placeholder", E, False, "an unknown {PLACEHOLDER} in a command template"),
    ("EV510", "invalid-healthcheck", E, False, "a malformed 'healthcheck'"),
    ("EV511", "unknown-judge-target", E, False, "a 'judge_target' naming no target in the file"),
    ("EV512", "hardcoded-secret", E, False, "a secret-like setting holding a literal value"),
    ("EV513", "invalid-workers", E, False, "'workers' is not a positive integer"),
    ("EV514", "cli-unknown-setting", E, False, "a 'cli' target setting the runner does not know (it rejects the target)"),
    # EV6xx: .agentv/config.yaml
    ("EV601", "invalid-guideline-patterns", E, False, "'guideline_patterns' is not a list of strings"),
    ("EV602", "empty-guideline-patterns", W, False, "'guideline_patterns' is an empty list"),
    ("EV603", "unknown-config-key", W, False, "a config.yaml key other than '$schema' and 'guideline_patterns'"),
    # EV7xx: JSONL datasets
    ("EV701", "invalid-json-line", E, False, "a dataset line that is not valid JSON"),
    ("EV702", "line-not-object", E, False, "a dataset line whose JSON is not an object"),
    ("EV703", "invalid-sidecar", E, False, "a dataset sidecar key that is unknown or of the wrong type"),
    # EV9xx: style (off unless selected)
    ("EV901", "prefer-expected-outcome", S, True, "the 'outcome' alias is used instead of 'expected_outcome'"),
    ("EV902", "legacy-target-key", S, True, "suite-level 'target' instead of 'execution.target'"),
    ("EV903", "legacy-rubric-type", S, False, "'type: rubric' where 'llm_judge' with 'rubrics' is current"),
    ("EV904", "missing-schema", S, True, "a recognised file without '$schema'"),
]

RULES: dict[str, Rule] = {}
for _code, _name, _level, _fixable, _summary in _TABLE:
    if _code in RULES:  # pragma: no cover - guarded by tests
        raise RuntimeError(f"duplicate rule code {_code}")
    RULES[_code] = Rule(_code, _name, _level, _fixable, _summary)

# codes whose finding sits on a secret: its text is starred out of every snippet
REDACTED = frozenset({"EV512"})

BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES.values()}

# docs/rules.md on the web, at the tag of this release: the text that matches the installed rules
DOCS_URL = f"https://github.com/agentv-evallint/evallint/blob/v{__version__}/docs/rules.md"


def doc_url(code: str) -> Optional[str]:
    """The link to the rule's section of docs/rules.md (SARIF's helpUri, the editor's code link)."""
    rule = RULES.get(code)
    return f"{DOCS_URL}#{code.lower()}-{rule.name}" if rule else None
