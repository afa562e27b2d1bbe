"""The directives before a YAML document as the runner's parser reads them, which is not as libyaml does.

The runner's parser (the ``yaml`` package) warns about a ``%YAML`` directive naming a version other than 1.1
or 1.2 and reads the document as YAML 1.2; it warns about a directive it does not know and passes over it.
libyaml refuses both. ``as_runner_reads`` gives the text libyaml is to parse: such a version written as 1.2,
such a directive made a comment, each in place (the text keeps its length, so every position stays), and the
warnings the runner gives about them."""
from __future__ import annotations

import re

from evallint.diagnostics import W, Finding, Rule, Span

# the rule this module finds, explained in yaml_directives.md beside it
EV015 = Rule("EV015", "yaml-directive", W, "a directive the runner's YAML parser passes over: an unsupported "
             "'%YAML' version or an unknown directive")

SUPPORTED_VERSIONS = ("1.1", "1.2")
KNOWN_DIRECTIVES = ("YAML", "TAG")
_VERSION = re.compile(r"[0-9]+\.[0-9]+\Z")  # any other text is an error for the runner as for libyaml
_LINE = re.compile(r"[^\n]*(?:\n|\Z)")
_COMMENT = re.compile(r"[ \t]#.*")


def as_runner_reads(text: str) -> tuple[str, list[Finding]]:
    """``text`` with the directives the runner passes over made readable by libyaml, and an EV015 finding for
    each. Directives count only when a document start marker (``---``) follows them, as both parsers ask. The
    findings' offsets leave out a byte order mark, as the parser's marks do."""
    directives, start = [], 1 if text.startswith("\ufeff") else 0
    for number, match in enumerate(_LINE.finditer(text, start)):
        line = match.group().rstrip("\r\n")
        if line.startswith("%"):
            directives.append((number, match.start(), line))
        elif line.startswith("---") and line[3:4] in ("", " ", "\t"):
            break
        elif line.strip() and not line.lstrip().startswith("#"):
            return text, []
        if match.end() == len(text):
            return text, []
    findings = []
    for number, offset, line in directives:
        parts = _COMMENT.sub("", line).split()
        name = parts[0][1:]
        if name == "YAML" and len(parts) == 2 and parts[1] not in SUPPORTED_VERSIONS and _VERSION.match(parts[1]):
            version = parts[1]
            column = line.index(version, 5)
            at = offset + column
            text = text[:at] + "1.2".ljust(len(version)) + text[at + len(version):]
            at -= start
            findings.append(Finding("EV015", f"'%YAML {version}' names a version the runner's YAML parser does not "
                                    f"support: it warns and reads the file as YAML 1.2 (supported: "
                                    f"{', '.join(SUPPORTED_VERSIONS)})",
                                    span=Span(number, column, number, column + len(version), at, at + len(version))))
        elif name not in KNOWN_DIRECTIVES:
            text = text[:offset] + "#" + text[offset + 1:]
            findings.append(Finding("EV015", f"'%{name}' is not a directive the runner's YAML parser knows: it warns "
                                    f"and passes over the line (known: "
                                    f"{', '.join('%' + known for known in KNOWN_DIRECTIVES)})",
                                    span=Span(number, 0, number, len(parts[0]), offset - start, offset - start + len(parts[0]))))
    return text, findings
