"""File names in diff headers: C-quoted names, `diff --git` lines, and path prefixes."""

from __future__ import annotations

from ..errors import PatchError

DEV_NULL = "/dev/null"
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def unquote(token: str) -> tuple[str, int] | None:
    """A C-quoted name at the start of `token` (as git and GNU diff write names with
    special bytes) → (the name, characters consumed), or None when it is not one."""
    if not token.startswith('"'):
        return None
    out = bytearray()
    i = 1
    while i < len(token):
        ch = token[i]
        if ch == '"':
            return out.decode("utf-8", "surrogateescape"), i + 1
        if ch != "\\":
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
            continue
        nxt = token[i + 1 : i + 2]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif len(token) >= i + 4 and all(c in "01234567" for c in token[i + 1 : i + 4]):
            value = int(token[i + 1 : i + 4], 8)
            if value > 255:
                return None
            out.append(value)
            i += 4
        else:
            return None
    return None


def header_name(raw: str) -> str:
    """The name on a `---`/`+++` line: unquoted, without a tab-separated timestamp."""
    quoted = unquote(raw)
    if quoted is not None and not raw[quoted[1] :].strip("\t\r "):
        return quoted[0]
    if quoted is not None and raw[quoted[1] : quoted[1] + 1] == "\t":
        return quoted[0]
    return raw.split("\t", 1)[0].strip()


def split_git_header(rest: str) -> tuple[str, str] | None:
    """The two names of a `diff --git X Y` line (`rest` is `X Y`), or None when they
    cannot be told apart. Unquoted names may hold spaces: the split chosen is the one
    where both names are equal (no prefixes) or equal after their first component."""
    first = unquote(rest)
    if first is not None:
        tail = rest[first[1] :]
        if not tail.startswith(" "):
            return None
        return first[0], _one_name(tail[1:])
    if rest.endswith('"'):
        at = rest.find(' "')
        while at >= 0:
            second = unquote(rest[at + 1 :])
            if second is not None and second[1] == len(rest) - at - 1:
                return rest[:at], second[0]
            at = rest.find(' "', at + 1)
    if len(rest) % 2 == 1:
        half = len(rest) // 2
        if rest[half] == " " and rest[:half] == rest[half + 1 :]:
            return rest[:half], rest[half + 1 :]
    at = rest.find(" ")
    while at >= 0:
        x, y = rest[:at], rest[at + 1 :]
        if "/" in x and "/" in y and x.split("/", 1)[1] == y.split("/", 1)[1]:
            return x, y
        at = rest.find(" ", at + 1)
    return None


def _one_name(text: str) -> str:
    quoted = unquote(text)
    return quoted[0] if quoted is not None and quoted[1] == len(text) else text


def drop_component(path: str) -> str:
    """`a/src/x.py` → `src/x.py` (a path without `/` is kept)."""
    return path.split("/", 1)[1] if "/" in path else path


def clean_plain(path: str | None) -> str | None:
    """A plain diff's name: None for /dev/null, without a leading `./`."""
    if path is None or path == DEV_NULL or not path:
        return None
    return path[2:] if path.startswith("./") else path


def strips_first_directory(old: str | None, new: str | None) -> bool | None:
    """Whether a plain section's two names show a `-p1` prefix (True: first directories
    differ, the rest is equal), show none (False: equal names), or say nothing (None)."""
    old, new = clean_plain(old), clean_plain(new)
    if not old or not new:
        return None
    if old == new:
        return False
    if "/" in old and "/" in new:
        old_first, old_rest = old.split("/", 1)
        new_first, new_rest = new.split("/", 1)
        if old_rest == new_rest and old_first != new_first:
            return True
    return None


def strip_components(path: str, count: int) -> str | None:
    """`path` without its first `count` directories, as `patch -p<count>` reads it; None
    when it has no more than `count` components (nothing would be left of it)."""
    parts = [part for part in path.split("/") if part]
    return "/".join(parts[count:]) if len(parts) > count else None


def _stripped(path: str | None, count: int) -> str | None:
    if path is None or count == 0:
        return path
    stripped = strip_components(path, count)
    if stripped is None:
        raise PatchError(
            f"cannot strip {count} director{'y' if count == 1 else 'ies'} from {path!r}"
        )
    return stripped


def plain_paths(
    old: str | None, new: str | None, strip_lone: bool = False, strip: int | None = None
) -> tuple[str | None, str | None]:
    """Prefixes of a plain diff's names: git's a/ b/, or, like `patch -p1`, a first
    directory that differs between two otherwise equal paths. Equal paths are kept. A
    name facing /dev/null loses its first directory when `strip_lone` (the diff's other
    sections show a -p1 prefix). An explicit `strip` removes exactly that many leading
    directories from every name instead of guessing (PatchError when a name is too short)."""
    old, new = clean_plain(old), clean_plain(new)
    if strip is not None:
        return _stripped(old, strip), _stripped(new, strip)
    if strip_lone and (old is None) != (new is None):
        return (drop_component(old) if old else None), (drop_component(new) if new else None)
    git_style = (old is None or old.startswith("a/")) and (new is None or new.startswith("b/"))
    if git_style and (old is not None or new is not None):
        return (old[2:] if old else None), (new[2:] if new else None)
    if old and new and "/" in old and "/" in new and old != new:
        old_first, old_rest = old.split("/", 1)
        new_first, new_rest = new.split("/", 1)
        if old_rest == new_rest and old_first != new_first:
            return old_rest, new_rest
    return old, new
