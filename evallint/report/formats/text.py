"""The default format: each diagnostic with its source line and a caret."""
from __future__ import annotations

import unicodedata

from evallint.diagnostics import Severity
from evallint.report.formats.base import Reporter, printable, summary_line

_MAX_SNIPPET = 200  # terminal columns of source text shown for one finding
_LEAD = 60  # columns kept before the finding when the line is cut, if the line goes on after it
_CUT = "..."


class TextReporter(Reporter):
    def __init__(self, stream, *, color: bool = False, quiet: bool = False):
        super().__init__(stream, color=color, quiet=quiet)
        if color:  # colorama only when colour is on: a piped run does not pay for it
            import colorama

            colorama.just_fix_windows_console()
            self.styles = {"red": colorama.Fore.RED, "yellow": colorama.Fore.YELLOW, 'cyan': colorama.Fore.CYAN,
                           'bold': colorama.Style.BRIGHT, "reset": colorama.Style.RESET_ALL}

    def paint(self, text: str, *styles: str) -> str:
        if not self.color:
            return text
        return "".join(self.styles[s] for s in styles) + text + self.styles["reset"]

    def file(self, diagnostics: list, lines: dict, repo_path: str) -> None:
        write = self.stream.write
        for d in diagnostics:
            sev = "red" if d.severity is Severity.ERROR else "yellow"
            fixable = " [*]" if d.fixable else ""
            write(f"{self.paint(f'{printable(d.path)}:{d.line}:{d.column}:', 'bold')} {self.paint(d.code, 'bold', sev)} "
                  f"{self.paint(f'[{d.severity.value}]', sev)}{fixable} {printable(d.message)}\n")
            if self.quiet:
                continue
            line = lines.get(d.line)
            if line is None:
                write("\n")
                continue
            shown, caret_at, caret_width = snippet_window(line, d.column, d.end_column if d.end_line == d.line else None)
            gutter = str(d.line)
            pad = " " * len(gutter)
            write(f"{pad} {self.paint('|', 'cyan')}\n")
            write(f"{self.paint(gutter, 'cyan')} {self.paint('|', 'cyan')} {shown}\n")
            write(f"{pad} {self.paint('|', 'cyan')} {' ' * caret_at}{self.paint('^' * caret_width, sev)}\n\n")

    def finish(self, totals) -> None:
        if not self.quiet:
            self.stream.write(summary_line(totals) + "\n")


def _columns(char: str) -> int:
    """The terminal columns a character of a source line takes as shown: an escaped control character its
    escape's length, a wide East Asian character two, a combining mark none."""
    shown = printable(char)
    if shown != char:
        return len(shown)
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _fit(chars, budget: int) -> tuple:
    """(columns, count) of the leading ``chars`` that fit in ``budget`` columns."""
    used = count = 0
    for char in chars:
        width = _columns(char)
        if used + width > budget:
            break
        used += width
        count += 1
    return used, count


def snippet_window(line: str, column: int, end_column) -> tuple:
    """(text shown, caret offset, caret width), in terminal columns, for a finding at ``column`` (1-based) of
    ``line`` that ends before ``end_column`` (None: at the line's end). A line wider than ``_MAX_SNIPPET``
    columns is cut around the finding, ``...`` standing for what is left out, so the caret stays under the
    finding; a finding wider than the window is marked to the window's end. A tab counts one column, as
    the parser counts it; the line's secrets are starred before it gets here, so any part of it may show."""
    source = line.expandtabs(1)
    start = min(max(column - 1, 0), len(source))
    end = len(source) if end_column is None else min(max(end_column - 1, start + 1), len(source))
    # a finding wider than the window leaves room for some of the line before it
    marked_cols, marked_count = _fit(source[start:end], _MAX_SNIPPET - min(_LEAD, start))
    room = _MAX_SNIPPET - marked_cols
    after = start + marked_count
    after_cols, _ = _fit(source[after:after + room + 1], room)
    # the line before the finding gets what the rest of the line leaves, and at least _LEAD columns
    before_cols, before_count = _fit(reversed(source[max(0, start - room):start]), min(room, max(_LEAD, room - after_cols)))
    _, after_count = _fit(source[after:after + room - before_cols + 1], room - before_cols)
    lead = _CUT if before_count < start else ""
    tail = _CUT if after + after_count < len(source) else ""
    shown = printable(source[start - before_count:after + after_count])
    return lead + shown + tail, len(lead) + before_cols, max(1, marked_cols)
