"""An edit of the code a security check rests on keeps no grant (`guard.checkwords`): the
host decides, as with no guard; an edit of other code keeps its grant; tests and prose are
not read; the detectors still ask where they recognise a weakening."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard import Places, judge
from amplifier_hooks.guard.checkwords import check_words_in, named
from tests.guard.conftest import DEV_PLACES, _default_pack, decided, edit, tool_decided

GRANTED = ("allow", "edit-workspace")
LEFT = (None, None)

CASES = [
    # the code of a check: taken out, widened or moved, each in words no detector lists
    (edit("src/members/service.ts", "deleteMany({ where: { orgId, userId } })",
          "deleteMany()"), LEFT),
    (edit("src/main.ts", "doubleCsrf({\n  ignoredMethods: ['GET'],\n})",
          "doubleCsrf({\n  ignoredMethods: ['GET', 'POST'],\n})"), LEFT),
    (edit("src/config/session.ts", "domain: 'app.acme.io',", "domain: '.acme.io',"), LEFT),
    (edit("src/security/csp.ts", "frameAncestors: [\"'none'\"],",
          "frameAncestors: [\"'self'\", 'https://*.example.com'],"), LEFT),
    (edit("app/Http/Kernel.php", "'throttle:60,1',", "'throttle:6000,1',"), LEFT),
    (edit("app/auth/keys.py", "KEYS = [current, previous]", "KEYS = [nextkey]"), LEFT),
    (edit("internal/api/handlers.go", "if !user.IsAdmin {\n\treturn\n}", ""), LEFT),
    (edit("src/net/Pinning.kt", "val pins = listOf(current, backup)", "val pins = listOf(next)"),
     LEFT),
    # ordinary code: a feature, a fix, a rename, markup
    (edit("src/components/Button.tsx", "<button className=\"btn\">",
          "<button className=\"btn btn-primary\" disabled={busy}>"), GRANTED),
    (edit("app/models/invoice.py", "def total(self):\n    return sum(self.lines)",
          "def total(self) -> Decimal:\n    return sum(line.amount for line in self.lines)"),
     GRANTED),
    (edit("internal/report/csv.go", "w.Write(row)", "if err := w.Write(row); err != nil {\n"
          "\treturn err\n}"), GRANTED),
    (edit("src/styles/theme.css", "color: #333;", "color: #222;"), GRANTED),
    # the words of a check in a test or in prose: nothing there ships
    (edit("tests/test_auth.py", "token = make_token()", "token = make_token(expired=True)"),
     GRANTED),
    (edit("docs/security.md", "Tokens expire after an hour.", "Tokens expire after a day."),
     GRANTED),
]  # fmt: skip


@pytest.mark.parametrize(("given", "expected"), CASES)
def test_an_edit_of_a_checks_code_is_left_to_the_host(
    given: dict[str, Any], expected: tuple[str | None, str | None]
) -> None:
    assert tool_decided("Edit", given) == expected


def test_the_reason_names_the_word() -> None:
    data = {"tool_name": "Edit", "tool_input": edit("src/a.ts", "cors()", "cors({})")}
    found = judge(data, _default_pack(), DEV_PLACES)
    assert found.decision is None
    assert "'cors'" in repr(found.pieces) and "security check" in repr(found.pieces)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("verifySignature(token)", "signature"),
        ("VERIFY_SIGNATURE = False", "signature"),
        ("app.use(rateLimit({ max: 100 }))", "ratelimit"),
        ("res.cookie('sid', v, { sameSite: 'lax' })", "cookie"),
        ('<uses-permission android:name="x" />', "permission"),
        ("tokenizer = AutoTokenizer.from_pretrained(name)", None),
        ("const author = post.author", None),
    ],
)
def test_a_names_parts_are_read_as_words(text: str, word: str | None) -> None:
    found = check_words_in(text)
    assert (found is None) if word is None else (f"'{word}'" in (found or ""))


def test_only_the_files_own_folder_names_it() -> None:
    assert named("/srv/popen-builds/auth-service/src/security/csp.ts") == "security/csp.ts"
    places = Places.of("/work/auth-service", home="/home/dev")
    data = {"tool_name": "Edit", "tool_input": {
        "file_path": "/work/auth-service/src/components/Button.tsx",
        "old_string": "<b>", "new_string": "<strong>"}}  # fmt: skip
    found = judge(data, _default_pack(), places)
    assert (found.decision, found.rule) == GRANTED


def test_a_patch_a_write_and_an_in_place_sed_are_read_too() -> None:
    patch = ("*** Begin Patch\n*** Update File: src/api/client.ts\n@@\n"
             "-  if (url.origin === API_ORIGIN) {\n+  if (url.host.endsWith(API_HOST)) {\n"
             "*** End Patch")  # fmt: skip
    assert tool_decided("apply_patch", {"input": patch})[0] != "allow"
    plain = ("*** Begin Patch\n*** Update File: src/ui/list.ts\n@@\n-const n = 1\n"
             "+const n = 2\n*** End Patch")  # fmt: skip
    assert tool_decided("apply_patch", {"input": plain})[0] == "allow"
    wrote = {"file_path": "/home/dev/project/src/login.ts", "content": "export const x = 1\n"}
    assert tool_decided("Write", wrote)[0] is None  # its name says sign-in
    assert decided("sed -i 's/maxAge: 900/maxAge: 90000/' src/session.js")[0] != "allow"
    assert decided("sed -i 's/colour/color/g' src/ui/Theme.java") == ("allow", "edit-in-workspace")


def test_the_detectors_still_ask() -> None:
    given = edit("src/auth.ts", "jwt.verify(token, key)", "jwt.decode(token)")
    assert tool_decided("Edit", given) == ("ask", "auth-weakened")
