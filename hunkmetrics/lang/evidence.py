"""How each level of a location is known: seen, inferred or unknown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# seen: read from the file (with sources) or the diff's own lines and `@@` heading;
# inferred: a guess (a package from the path, a class from the file's name); unknown:
# no answer (a null value then says nothing, unlike a seen null: module level).
Basis = Literal["seen", "inferred", "unknown"]
BASES: tuple[Basis, ...] = ("seen", "inferred", "unknown")
# The documents' `evidence` string: the package's, the class's and the method's basis.
EVIDENCE_PATTERN = "^" + "/".join(["(" + "|".join(BASES) + ")"] * 3) + "$"


def weakest(*bases: Basis) -> Basis:
    """The least certain of several bases (unknown < inferred < seen)."""
    return max(bases, key=BASES.index)


@dataclass(frozen=True, slots=True)
class Evidence:
    """The basis of a location's package, class and method. Each covers its own part of
    the name: the package; the class's type path inside the file (after the package or
    module); the method's class path, name and parameters."""

    package: Basis = "seen"
    class_name: Basis = "seen"
    method: Basis = "seen"

    def code(self) -> str:
        """`package/class/method`, as documents write it: `inferred/seen/seen`."""
        return f"{self.package}/{self.class_name}/{self.method}"

    def weakened(self) -> Evidence:
        """This evidence with class and method no better than inferred (say, in a file
        whose syntax errors error recovery placed the scopes around)."""
        return Evidence(
            self.package, weakest(self.class_name, "inferred"), weakest(self.method, "inferred")
        )


SEEN = Evidence()
