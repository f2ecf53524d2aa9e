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
    app(args=debug_first(sys.argv[1:]))


def debug_first(args: list[str]) -> list[str]:
    """`--debug` is a root option; accept it after the command too (`hunkmetrics hunks
    x.diff --debug`) by moving it to the front (never past a `--`)."""
    end = args.index("--") if "--" in args else len(args)
    if "--debug" not in args[:end]:
        return args
    rest = [a for i, a in enumerate(args) if not (i < end and a == "--debug")]
    return ["--debug", *rest]


def __getattr__(name: str) -> Any:
    # `app` needs typer: imported on first use, so that main() can report it missing.
    if name == "app":
        from .root import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
