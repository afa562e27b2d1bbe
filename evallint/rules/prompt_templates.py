"""The variables of a prompt template file a grader's prompt names (EV402, EV405, EV406, explained in
references.md): the runner fills the ones it knows, leaves any other as written, and skips the test when the
template uses neither of the variables it requires."""
from __future__ import annotations

from evallint.diagnostics import Finding
from evallint.load.reach import Resolved
from evallint.rules.grader_files import (AGENT_VARIABLES_4, EARLIER_VARIABLES_4, REQUIRED_VARIABLES_4, RUBRIC_VARIABLES_4,
                                         RUBRICS_UNSEEN, TEMPLATE_VARIABLES_4)
from evallint.rules.reference_words import elsewhere
from evallint.rules.referenced import BLANK, template_variables
from evallint.suggest import did_you_mean, one_of, quote


def template_findings(path: tuple, value: str, resolved: Resolved, root: str, known: tuple, required: tuple = (),
                      skipped: str = "", rubrics: bool = False, agent: bool = False) -> list:
    """The findings of the template found for a prompt: EV402 when it is blank; EV405 when it uses neither of the
    ``required`` variables (the runner then does what ``skipped`` says), when an AgentV 4.42 template uses none that
    shows the grader what the agent did (the template is the whole grader prompt: prompt-resolution.ts) and the
    grader is no ``agent`` (which reads the workspace), or, of a grader with ``rubrics``, neither of those that
    hold them; EV406 for each variable not ``known``."""
    names = template_variables(resolved, root)
    if names is None:
        return []
    template = elsewhere(resolved.path, "the prompt template")
    if names is BLANK:
        return [Finding("EV402", f"prompt template {quote(value)} is empty", path, extra=template)]
    out = []
    if required and not any(n in required for n in names):
        earlier = next((n for n in names if required == REQUIRED_VARIABLES_4 and EARLIER_VARIABLES_4.get(n) in required),
                       None)
        then = f" (it uses AgentV 2.2's '{{{{ {earlier} }}}}': write '{{{{ {EARLIER_VARIABLES_4[earlier]} }}}}')" \
            if earlier else ""
        out.append(Finding("EV405", f"prompt template {quote(value)} uses neither '{{{{ {required[0]} }}}}' nor "
                           f"'{{{{ {required[1]} }}}}'{then}; {skipped}", path, extra=template))
    elif required == REQUIRED_VARIABLES_4 and not set(names) & set(AGENT_VARIABLES_4) and not agent:
        out.append(Finding("EV405", f"prompt template {quote(value)} uses '{{{{ expected_output }}}}' but not "
                           "'{{ output }}': it is the whole grader prompt, so the grader never sees the answer; add "
                           "'{{ output }}'", path, extra=template))
    if rubrics and not set(RUBRIC_VARIABLES_4) & set(names):
        out.append(Finding("EV405", f"prompt template {quote(value)} {RUBRICS_UNSEEN}", path, extra=template))
    for name in dict.fromkeys(n for n in names if n not in known):
        later = EARLIER_VARIABLES_4.get(name) if known == TEMPLATE_VARIABLES_4 else None
        meant = f" (AgentV 2.2's name of '{{{{ {later} }}}}')" if later else did_you_mean(name, known)
        out.append(Finding("EV406", f"prompt template {quote(value)} uses unknown variable '{{{{ {name} }}}}'{meant}; "
                           f"known: {one_of(known)}", path, extra=template))
    return out
