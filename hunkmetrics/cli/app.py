"""The `hunkmetrics` console script. The application itself is in cli/root.py (its
commands in cli/commands.py and the *_commands.py modules); `app` is re-exported here."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .root import app as app

CLI_EXTRA = 'hunkmetrics: the command line needs its extra: pip install "hunkmetrics[cli]"'
CLI_PACKAGES = ("typer", "rich", "click")


def main() -> None:
    """Run the command line; without typer/rich (the `cli` extra), say so and exit 2."""
    try:
        from .root import app
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in CLI_PACKAGES:
            raise
        print(CLI_EXTRA, file=sys.stderr)
        raise SystemExit(2) from None
    app()


def __getattr__(name: str) -> Any:
    # `app` needs typer: imported on first use, so that main() can report it missing.
    if name == "app":
        from .root import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
