"""The default format: each diagnostic with its source line and a caret."""
from __future__ import annotations

from evallint.diagnostics import Severity
from evallint.report.formats.base import Reporter, printable, summary_line

_MAX_SNIPPET = 200


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
            source = line.expandtabs(1)
            width = max(1, (d.end_column if d.end_line == d.line else len(source) + 1) - d.column)
            width = min(width, max(1, len(source) - d.column + 1))
            # a control character in the line is shown escaped; the caret moves and widens with it
            before, marked = printable(source[:d.column - 1]), printable(source[d.column - 1:d.column - 1 + width])
            source = printable(source)
            width = max(1, len(marked))
            gutter = str(d.line)
            pad = " " * len(gutter)
            shown = source if len(source) <= _MAX_SNIPPET else source[:_MAX_SNIPPET] + "..."
            write(f"{pad} {self.paint('|', 'cyan')}\n")
            write(f"{self.paint(gutter, 'cyan')} {self.paint('|', 'cyan')} {shown}\n")
            caret_at = min(len(before), _MAX_SNIPPET)
            write(f"{pad} {self.paint('|', 'cyan')} {' ' * caret_at}{self.paint('^' * min(width, _MAX_SNIPPET), sev)}\n\n")

    def finish(self, totals) -> None:
        if not self.quiet:
            self.stream.write(summary_line(totals) + "\n")
