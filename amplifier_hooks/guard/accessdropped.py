"""An edit that takes a service's access control out of its configuration.

Besides a protection's switch turned off (`switchedoff`), a configuration loses its guard
when the lines that held it are taken away: a cache or registry's ``htpasswd_file`` or
``tls_ca_file`` dropped (anyone reaches it, in the clear), Hasura's
``HASURA_GRAPHQL_ADMIN_SECRET`` dropped (anyone administers the API), Jenkins' authorization made
``unsecured`` (anyone administers the controller and reads its credentials), a pipeline's
approval step (``input ... submitter: 'release-managers'``) removed, a bucket's ACL made
``public-read``, a service that listened on loopback made to listen on every address
(``listener 1883 127.0.0.1`` made ``0.0.0.0``), or a list of trusted networks or proxies
given every address (``0.0.0.0/0``), or a Kubernetes role's rule given every API group,
resource or verb (``"*"``), an MQTT client given every topic (``topic readwrite #``), or
a device's over-the-air update or API left without its password (ESPHome's ``ota:``), a
web server's location left without its ``deny all;`` or ``auth_basic``, a DNS zone's
transfers or updates allowed to ``any``, a Cloudflare Worker put on its public
``workers.dev`` address (past Cloudflare Access), a SAM function URL's ``AuthType: NONE``,
an IAM statement's ``Action: "*"`` or ``AdministratorAccess``, a CDK bucket made public,
a role given the namespace's ``secrets``, an ingress's source allow list or sign-in
annotations or an API's default authorizer taken out, a file made world-writable by its
settings (``'permission' => 0666``).
Each is asked, as a protection switched off; a key
that moves within the edit (it is in the new text too) is not dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.iacfiles import iac_file
from amplifier_hooks.guard.ignorefiles import change_pairs, edit_pairs

__all__ = ["drops_access"]

_AUTH_KEY = re.compile(
    r"^\s*[\"']?(?P<key>[\w.-]{0,40}(?:htpasswd|tls[_-]?(?:ca|cert|key|client)[\w-]*|client[_-]?ca"
    r"|basic[_-]?auth|auth[_-]?(?:file|required|enabled|token)|require[_-]?auth|password[_-]?file"
    r"|adminAuth|httpNodeAuth|api[_-]?password|admin[_-]?secret)[\w.-]{0,40})"
    r"[\"']?\s*[:=]",
    re.M | re.I,
)
"""A setting that holds a service's login or TLS (``htpasswd_file:``, ``tls_ca_file:``)."""
_UNSECURED = re.compile(
    r"authorizationStrategy\s*:\s*[\"']?unsecured|AuthorizationStrategy\$Unsecured"
    r"|<useSecurity>\s*false|securityRealm\s*:\s*[\"']?none\b"
    r"|SecurityPolicy#None\b|<SecurityMode>\s*None\s*<|auto_?accept_?untrusted\w*\s*[:=]\s*true"
    r"|\ballow_?anonymous[\"']?\s*[:=]?\s*true\b"
    r"|(?:githubusercontent\.com|gitlab\.com|app\.terraform\.io):sub[\"']?\s*[:=]\s*\[?\s*"
    r"[\"'](?:\*|repo:[\w.-]+/\*|project_path:[\w.-]+/\*)"
    r"|\bAuthType\s*:\s*[\"']?NONE\b|\bpublicReadAccess\s*:\s*true\b"
    r"|\b(?:blockPublic(?:Acls|Policy)|ignorePublicAcls|restrictPublicBuckets)\s*:\s*false\b"
    r"|^\s*-?\s*[\"']?Action[\"']?\s*:\s*[\"']\*[\"']|\bactions\s*=\s*\[\s*[\"']\*[\"']\s*\]"
    r"|[\"']AdministratorAccess[\"']"
    r"|[\"'](?:permission|file_?mode|dir_?mode)[\"']\s*=>\s*0o?[0-7]?[0-7]{2}[2367]\b",
    re.I | re.M,
)
"""Jenkins left open to anyone, an OPC UA server's endpoint with no security policy or mode,
a client that trusts every server's certificate, a broker or server that lets anyone in
(``allow_anonymous true``), a cloud role's OIDC trust given to every repository of an
owner (``token.actions.githubusercontent.com:sub: repo:acme/*``): any workflow of any of
them then assumes the role."""
_OPENED_TO_ANY = re.compile(
    r"\ballow-(?:transfer|update|recursion|query)\s*\{\s*any\s*;|\bworkers_dev\s*=\s*true\b"
)
"""A DNS zone's transfers or updates allowed to ``any``, a Worker put on ``workers.dev``
(read only where the text says ``allow-`` or ``workers_dev``: a long write pays nothing)."""
_APPROVAL = re.compile(
    r"\binput\b[^\n]*\bsubmitter\s*:|\binput\s*\(\s*message\s*:|^\s*when\s*:\s*manual\b",
    re.I | re.M,
)
"""A Jenkins pipeline's approval step, which waits for a named person to say go, or a
GitLab job's ``when: manual`` (a person presses deploy)."""
_PUBLIC_ACL = re.compile(
    r"""\b(?:acl|ACL|canned_acl|predefined_acl)["']?\s*[:=]\s*["']?(?:public-read(?:-write)?"""
    r"""|publicRead(?:Write)?|allUsers)\b"""
)
_LOOPBACK = re.compile(r"\b127\.0\.0\.1\b|\blocalhost\b|\[?::1\]?(?![\w:])")
_EVERY_ADDRESS = re.compile(r"(?<![\d.])0\.0\.0\.0(?![\d./])")
_ANYONE = re.compile(r"(?<![\d.])0\.0\.0\.0/0\b|(?<![\w:])::/0\b")
"""A list of trusted networks or proxies given every address (``trusted_proxies``,
``trusted_networks``, an allow list)."""
_RBAC_ANY = re.compile(
    r"""(?:apiGroups|resources|verbs)\s*:\s*(?:\[\s*["']\*["']|\n\s*-\s*["']\*["'])"""
)
"""A Kubernetes role's rule given every API group, resource or verb (``"*"``)."""
_RBAC_SECRETS = re.compile(r"""\bresources\s*:\s*\[[^\]\n]*["']?secrets["']?""")
"""A role's rule that reads the Secrets of its namespace (every key its workloads hold)."""
_INGRESS_GUARD = re.compile(
    r"(?:whitelist|allowlist)-source-range\s*:|/auth-(?:url|signin)\s*:|\bDefaultAuthorizer\s*:"
)
"""An ingress's address allow list or sign-in (ingress-nginx's annotations), an API's
default authorizer (SAM's ``Auth:``)."""
_MQTT_EVERY_TOPIC = re.compile(r"^\s*(?:pattern|topic)\s+(?:readwrite\s+|write\s+)?#\s*$", re.M)
"""An MQTT broker's ACL line that gives a client (or every client: ``pattern``) every topic
(``topic readwrite #``)."""
_DEVICE_AUTH = re.compile(r"^\s*(?:-\s+)?(?:ota|api|web_server)\s*:", re.M)
_PASSWORD_KEY = re.compile(r"^\s*(?:-\s+)?(?:password|key)\s*:", re.M)
"""ESPHome's over-the-air, API and web server blocks, and the password or key each takes."""
_WEB_GUARD = re.compile(
    r"^\s*(?:deny\s+all\s*;|auth_basic\s+(?!off\b)\S|auth_request\s+\S|satisfy\s+all\b"
    r"|basicauth\b|forward_auth\b|Require\s+(?:ip|valid-user|host)\b)",
    re.M | re.I,
)
"""A web server's lines that keep a location to some (nginx's ``deny all;`` after its
``allow`` list, ``auth_basic``; Caddy's ``basicauth``, Apache's ``Require ip``)."""
_MAX_TEXT = 64 * 1024


def drops_access(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of ``paths`` drops a service's login or TLS settings, leaves Jenkins
    unsecured, removes a pipeline's approval step, or (any write) makes an ACL public (an
    infrastructure file's ``0.0.0.0/0`` is `iacfiles`' to say)."""
    iac = any(iac_file(p) is not None for p in paths)
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_PUBLIC_ACL, old, new):
            return True
        if more(_UNSECURED, old, new):
            return True
        if ("allow-" in new or "workers_dev" in new) and more(_OPENED_TO_ANY, old, new):
            return True
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        kept = {m["key"].lower() for m in _AUTH_KEY.finditer(new)}
        if any(m["key"].lower() not in kept for m in _AUTH_KEY.finditer(old)):
            return True
        if len(_APPROVAL.findall(new)) < len(_APPROVAL.findall(old)):
            return True
        if not iac and more(_ANYONE, old, new):
            return True
        if more(_MQTT_EVERY_TOPIC, old, new):
            return True
        if len(_WEB_GUARD.findall(new)) < len(_WEB_GUARD.findall(old)):
            return True  # a location's `allow 10.8.0.0/24; deny all;` taken out
        if _DEVICE_AUTH.search(old) and len(_PASSWORD_KEY.findall(new)) < len(
            _PASSWORD_KEY.findall(old)
        ):
            return True  # ESPHome's `ota:` without its `password:`: anyone flashes it
        if more(_RBAC_ANY, old, new) or more(_RBAC_SECRETS, old, new):
            return True  # a role's rule made `apiGroups: ["*"]`, `resources: ["*"]`
        if len(_INGRESS_GUARD.findall(new)) < len(_INGRESS_GUARD.findall(old)):
            return True
        if more(_EVERY_ADDRESS, old, new) and len(_LOOPBACK.findall(new)) < len(
            _LOOPBACK.findall(old)
        ):
            return True  # `listener 1883 127.0.0.1` made `0.0.0.0`: open to the network
    return False
