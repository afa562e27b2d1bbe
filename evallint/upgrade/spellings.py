"""How AgentV 4.42.4 spells what AgentV 2.2 read, place by place: the one table the upgrade rewrites by.

Only spellings whose meaning is the same in both runners are here; what 4.42.4 cannot say as 2.2 meant it is
reported by the planners (``plan_suite.py``, ``plan_project.py``) instead of rewritten."""
from __future__ import annotations

import re

# the keys of an eval suite, of a test (case) and of a dataset's sidecar
SUITE_KEYS = {"evalcases": "tests"}
CASE_KEYS = {"input_messages": "input", "expected_messages": "expected_output", "expected_outcome": "criteria",
             "outcome": "criteria"}
# 2.2 names a suite, and a dataset in its sidecar, by 'dataset'; 4.42.4 by 'name' (a suite's must be a valid
# metadata name, else the file is rejected)
SUITE_NAME = SIDECAR_NAME = ("dataset", "name")
SUITE_NAME_PATTERN = re.compile(r"[a-z0-9-]{1,64}\Z")
# the suite metadata 4.42.4 checks once 'name' is a string: key -> (what it must be, its test)
METADATA = {
    "description": ("a string of 1 to 1024 characters", lambda v: isinstance(v, str) and 1 <= len(v) <= 1024),
}

# evaluator kinds (4.42.4: assertion types) and the kinds of a composite's aggregator
KINDS = {"llm_judge": "llm-grader", "code_judge": "code-grader", "rubric": "rubrics",
         "tool_trajectory": "tool-trajectory", "field_accuracy": "field-accuracy", "token_usage": "token-usage",
         "composite": "composite", "latency": "latency", "cost": "cost"}
AGGREGATOR_KINDS = {"llm_judge": "llm-grader", "code_judge": "code-grader", "weighted_average": "weighted_average"}

# the kind that runs a composite's member as 2.2 ran it (with none of its settings: EV333's MEMBER_IGNORED)
MEMBER_KINDS = {"rubric": "llm-grader"}
# 2.2 matched an expected tool call's 'args' as a subset of the call's arguments; 4.42.4 exactly, unless told
ARGS_MATCH = ("args_match", "superset")
# the keys of an evaluator of each kind
EVALUATOR_KEYS = {
    "code_judge": {"script": "command"},
    "composite": {"evaluators": "assertions"},
    "rubric": {"rubrics": "criteria"},
}
# the grader 2.2 made of a case's own 'rubrics' list (4.42.4 names the grader it makes of them 'rubrics')
CASE_RUBRIC = {"name": "rubric", "type": "rubrics"}
# the keys of a rubric item (in a rubric evaluator, an llm_judge's rubrics and a case's rubrics)
RUBRIC_ITEM_KEYS = {"description": "outcome", "expected_outcome": "outcome"}

# a prompt read from a file is written with this prefix in 4.42.4 (without it, the words are the prompt)
PROMPT_FILE_PREFIX = "file://"
# the variables 2.2 filled with whole message lists, which no 4.42.4 variable holds
UNFILLED_NAMES = ("input_messages", "expected_messages", "output_messages")

# a target's keys, for every provider (None) or the providers named; a healthcheck's keys
TARGET_KEYS = {"command_template": ("command", ("cli",)), "judge_target": ("grader_target", None),
               "pi_provider": ("subprovider", ("pi-coding-agent",))}
# 2.2's providers that 4.42.4 runs under another name: 2.2's pi-coding-agent ran the pi command line, which is
# 4.42.4's pi-cli (its pi-coding-agent runs pi in process and reads no executable)
PROVIDERS = {"pi-coding-agent": "pi-cli"}
HEALTHCHECK_KEYS = {"command_template": "command"}
# 2.2's 'log_format' of the agents that stream logs, and the 'stream_log' value of each of its values
LOG_FORMAT_KEY = "log_format"
LOG_FORMAT = ("stream_log", {"json": "raw", "summary": "summary"})
LOG_FORMAT_PROVIDERS = ("codex", "codex-cli", "pi-coding-agent", "claude", "claude-code", "claude-cli", "claude-sdk")
# what 4.42.4 has no place for, and what to do instead
TARGET_GONE = {
    "workspace_template": "write the folder as the 'workspace: {template: ...}' of the eval suites run against this "
                          "target, which is where 4.42.4 reads it",
}
PROVIDERS_GONE = {
    "pi-agent-sdk": "it runs the target as a provider script '.agentv/providers/pi-agent-sdk.ts', which fails when "
                    "there is none; 'pi-coding-agent' and 'pi-cli' run the pi agent",
}
CONFIG_GONE = {
    "guideline_patterns": "a file these patterns match, which 2.2 sent to the agent apart as a guideline, is sent as "
                          "an ordinary file of its message",
}

# what 2.2 sent a code_judge's script on standard input that 4.42.4 sends a code grader under another name, or
# not at all (None); an SDK script reads the same keys in camelCase
PAYLOAD_KEYS = {"candidate_answer": "output", "expected_outcome": "criteria", "input_messages": "input",
                "output_messages": "messages", "expected_messages": "expected_output", "question": None,
                "reference_answer": None, "guideline_files": None}
