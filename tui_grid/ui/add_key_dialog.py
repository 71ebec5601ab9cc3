"""Another SSH key for this account: its public key line, pasted (from ~/.ssh/*.pub)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical

from tui_grid.core.errors import UsageError
from tui_grid.ui.form import FormDialog
from tui_grid.ui.plain import Plain, PlainInput, styled


class AddKeyDialog(FormDialog["str | None"]):
    DEFAULT_CSS = """
    AddKeyDialog { align: center middle; }
    AddKeyDialog > Vertical { width: 70; height: auto; border: thick $accent; background: $surface; padding: 0 1; }
    AddKeyDialog #error { color: $error; }
    """

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(styled(("Add a key to this account", "b")))
            yield Plain("Paste a public key line (the contents of ~/.ssh/id_ed25519.pub on your other machine). "
                        "It logs in as you where the server admits it.")
            yield PlainInput(placeholder="ssh-ed25519 AAAA... me@laptop", id="key")
            yield Plain("", id="error")
            yield Plain("enter adds · esc cancels")

    def chosen(self) -> str | None:
        line = self.query_one("#key", PlainInput).value.strip()
        if not line.startswith(("ssh-", "ecdsa-", "sk-")) or len(line.split()) < 2:
            raise UsageError("Key: a line like 'ssh-ed25519 AAAA...': the .pub file's one line.")
        return line
