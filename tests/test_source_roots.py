"""Source roots recognized anywhere in the path (multi-module builds), diff-only."""

from __future__ import annotations

import hunkmetrics
from hunkmetrics.lang.languages import default_languages
from hunkmetrics.lang.paths import dotted_directory

JAVA_ROOTS = default_languages()["java"].source_roots


def test_multi_module_source_roots_by_hand() -> None:
    cases = {
        "gson/src/main/java/com/google/gson/internal/bind/TypeAdapters.java": (
            "com.google.gson.internal.bind"
        ),
        "src/main/java/com/acme/Calc.java": "com.acme",
        "modules/core/src/test/java/org/x/CoreTest.java": "org.x",
        "app/src/main/java/Main.java": "",
        # one-segment roots only at the start: `lib/test/...` keeps its `test`
        "lib/test/foo/Bar.java": "lib.test.foo",
        "src/org/y/Z.java": "org.y",
    }
    for path, package in cases.items():
        assert dotted_directory(path, JAVA_ROOTS) == package, path


def test_diff_only_package_of_a_multi_module_file() -> None:
    """No `package` line in the hunk: the package comes from the path."""
    path = "gson/src/main/java/com/google/gson/internal/bind/TypeAdapters.java"
    diff = f"""--- a/{path}
+++ b/{path}
@@ -100,3 +100,3 @@ public final class TypeAdapters {{
   public static int limit() {{
-    return 1;
+    return 2;
   }}
""".encode()
    with hunkmetrics.open_workspace(diff) as ws:
        (item,) = ws.located()
    assert item.location.package == "com.google.gson.internal.bind"
