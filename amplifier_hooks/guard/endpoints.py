"""An HTTP request to an endpoint whose name says it deletes: ``POST /logs/_delete_by_query``
(Elasticsearch, OpenSearch), ``POST .../credential/NAME/doDelete`` (Jenkins), ``POST
/api/v1/admin/tsdb/delete_series`` (Prometheus), ``POST /indexes/I/documents/delete-batch``
(Meilisearch).

A service's HTTP API names its acts in its paths as its CLI names them in its commands, and
what such a request removes is the server's, which nothing here gives back: it is asked
as an HTTP DELETE is (`ENDPOINT_DELETE`, the pack's ``http-delete-endpoint``). The verbs
are the shared ones (`verbs.DESTROYS`), read in each segment of the URL's path
(``_delete_by_query``, ``doDelete``, ``delete-batch``). Only a request that may change
something is read: a GET or HEAD (curl's default without data, ``-G``, ``-I``; httpie's
without data items) only looks. curl and wget are read with the table's options
(`table.fetch`); httpie and xh as ``http [OPTIONS] [METHOD] URL [ITEMS]``.

A POST, PUT or PATCH that curl or wget sends to another machine with a credential (an
``Authorization`` or key header, ``-u USER:PASS``, an ``access_token`` field or query
parameter) acts there as the credential's owner,
whatever its path says: `ENDPOINT_CHANGE` (``http-change-signed-in``), unless the path
only looks (a search, a query, a count) or asks a model for a completion.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl, urlsplit

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.fetch import FETCHING
from amplifier_hooks.guard.table.options import Read, read_options
from amplifier_hooks.guard.urlhosts import is_local
from amplifier_hooks.guard.verbs import DESTROYS

__all__ = ["ENDPOINT_CHANGE", "ENDPOINT_DELETE", "PROGRAMS", "changes_as_someone",
           "deletes_by_endpoint", "mark_endpoint_deletes"]  # fmt: skip

ENDPOINT_DELETE = "@http-delete-endpoint"
"""The mark of a request whose URL's path names a delete."""
ENDPOINT_CHANGE = "@http-change-signed-in"
"""The mark of a POST, PUT or PATCH to another machine made with a credential: it acts on
that service as whoever the credential belongs to."""

_HTTPIE = frozenset({"http", "https", "xh", "xhs", "httpie"})
PROGRAMS = frozenset(FETCHING) | _HTTPIE
"""The programs whose requests are read."""
_HTTPIE_VALUED = frozenset(
    {"-a", "--auth", "-A", "--auth-type", "--session", "--session-read-only", "-o",
     "--output", "--pretty", "-s", "--style", "-p", "--print", "--cert", "--cert-key",
     "--cert-key-pass", "--verify", "--proxy", "--timeout", "--max-redirects", "--boundary",
     "--format-options", "--default-scheme", "--ssl", "--ciphers", "--response-charset",
     "--response-mime", "--unix-socket", "--http-version", "--resolve", "--interface"}
)  # fmt: skip
"""httpie's (and xh's) options that take the next word as their value."""
_DATA = ("-d", "--data", "--data-ascii", "--data-binary", "--data-raw", "--data-urlencode",
         "--json", "-F", "--form", "--form-string", "-T", "--upload-file")  # fmt: skip
"""curl's options that send a body: a POST (a PUT for -T) unless -X says otherwise."""
_WGET_DATA = ("--post-data", "--post-file", "--body-data", "--body-file")
_LOOKING = frozenset({"GET", "HEAD", "OPTIONS"})
_METHOD = re.compile(r"^[A-Za-z]+$")
_ITEM = re.compile(r"^[^=:@]+(?::=@?|=(?!=)|@)")
"""An httpie data item (``k=v``, ``k:=json``, ``f@file``): it makes the request a POST.
(``k==v`` is a query parameter and ``H:v`` a header: neither sends a body.)"""
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def mark_endpoint_deletes(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each request to a deleting endpoint marked `ENDPOINT_DELETE`, and
    each signed-in change elsewhere `ENDPOINT_CHANGE`; the same tuple when none is."""
    return mark_each(pieces, PROGRAMS, _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    piece = pieces[index]
    program, args = piece.program or "", piece.args
    if program not in FETCHING:
        return (ENDPOINT_DELETE,) if deletes_by_endpoint(program, args) else ()
    read = read_options(FETCHING[program], args)  # (once, for both questions)
    method, urls = _fetched(program, read)
    if method not in _LOOKING and any(_names_delete(url) for url in urls):
        return (ENDPOINT_DELETE,)
    return (ENDPOINT_CHANGE,) if _signed_change(read, method, urls) else ()


def changes_as_someone(program: str, args: tuple[str, ...]) -> bool:
    """Whether ``program args`` is a POST, PUT or PATCH with a credential (an
    ``Authorization`` or key header, ``-u USER:PASS``) to a URL on another machine whose
    path does not only look (``_search``, ``/query``, ``graphql`` with a ``query``, a
    model's completion): a deploy triggered, a ticket changed, a message or a payment
    sent, as the credential's owner. curl and wget only (httpie's items are another
    syntax)."""
    if program not in FETCHING:
        return False
    read = read_options(FETCHING[program], args)
    return _signed_change(read, *_fetched(program, read))


def _signed_change(read: Read, method: str, urls: list[str]) -> bool:
    if method not in _CHANGING or not urls or all(is_local(url) for url in urls):
        return False
    signed = any(
        (name in ("-u", "--user", "--oauth2-bearer", "--http-user", "--password")
         or (name in ("-H", "--header") and _CREDENTIAL_HEADER.match(value))
         or (name in _FIELDS and _CREDENTIAL_FIELD.match(value)))
        for name, value in ((g.opt.names[0], g.value or "") for g in read.given)
    ) or any(_CREDENTIAL_QUERY.search(url) for url in urls)  # fmt: skip
    if not signed or (method == "POST" and all(_only_looks(url) for url in urls)):
        return False  # (a PUT or a PATCH writes whatever its path is named)
    if all(_SANDBOX.search(_host(url)) for url in urls) or _rehearsed(read, urls):
        return False  # a provider's sandbox, or a request it only validates
    return not (all(_GRAPHQL.search(url) for url in urls) and _graphql_query(read))


_GRAPHQL = re.compile(r"(?i)/graphql(?:\.json)?/?(?:$|\?)")
_BODIES = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json",
                     "--post-data", "--body-data"})  # fmt: skip
_MUTATION = re.compile(r"\bmutation\b|\bsubscription\b")


def _graphql_query(read: Read) -> bool:
    """Whether every body sent to a GraphQL endpoint is written out and only queries (no
    ``mutation``: a read, as a search is); a body read from a file is not known."""
    bodies = [g.value or "" for g in read.given if g.opt.names[0] in _BODIES]
    return bool(bodies) and all(
        not b.startswith("@") and '"query"' in b and _MUTATION.search(b) is None for b in bodies
    )


_CHANGING = frozenset({"POST", "PUT", "PATCH"})
_FIELDS = _BODIES | {"-F", "--form", "--form-string", "--data-urlencode"}
_CREDENTIAL_FIELD = re.compile(r"(?i)\s*(?:access_token|api_?key|auth_?token|token|secret)=")
_CREDENTIAL_QUERY = re.compile(r"(?i)[?&](?:access_token|api_?key|auth_?token|token)=")
"""A credential sent as a form field or a query parameter (Meta's Graph API's
``access_token``): signed in as surely as by a header."""
_CREDENTIAL_HEADER = re.compile(
    r"(?i)\s*(?:authorization|proxy-authorization|[\w-]*(?:api[-_]?key|token|secret|"
    r"access[-_]?key|auth)[\w-]*)\s*:"
)
_LOOK_PATH = re.compile(
    r"(?i)(?:^|[/_.:-])(?:_?m?search(?:Stream)?|_?query|_count|_validate|_explain|_mget|lookup|_analyze|"
    r"_field_caps|_m?termvectors|_sql|_pit|"
    r"chat/completions|completions|embeddings|generateContent|countTokens|v1/messages|"
    r"v1/responses)(?:$|[/?.#])"
)
"""A path whose request only looks or asks a model (everyday, costed by its key's owner)."""


def _only_looks(url: str) -> bool:
    """Whether ``url``'s path ends in a look (``/orders/_search``): the last of its
    segments, so that a resource named ``search`` is not one (``/_security/role/search``);
    the query and the fragment (never sent) are not the path."""
    path = url.partition("://")[2] if "://" in url else url
    path = "/" + path.partition("/")[2].partition("?")[0].partition("#")[0].rstrip("/")
    if _BY_QUERY.search(path) is not None:
        return False
    return any(not path[m.end() :] for m in _LOOK_PATH.finditer(path))


_SANDBOX = re.compile(r"(?i)(?<![a-z])sandbox(?![a-z])")
"""A provider's sandbox host (``sandbox-ads.tiktok.com``, ``api.sandbox.paypal.com``): its
accounts and money are pretend."""
_REHEARSING_HOSTS = re.compile(
    r"(?i)(?:^|\.)(?:googleapis\.com|facebook\.com|instagram\.com|tiktok\.com)$"
)
"""The APIs that honour a request to only check it: Google's (``"validateOnly": true``)
and Meta's Graph API (``execution_options=["validate_only"]``, ``test_event_code``).
Elsewhere such a field is one the service may ignore, and the change is made."""
_REHEARSAL_TEXT = re.compile(
    r"(?i)[\"']?validate_?only[\"']?\s*[:=]\s*[\"']?true|execution_options=\S*validate_only"
    r"|\btest_event_code\b"
)
"""The same fields in a body the guard cannot take apart (one filled in at run time, ``-d
"$(jq ...)"``), found in its text."""
_VALIDATE_ONLY = frozenset({"validateonly", "validate_only"})


def _rehearsal_field(name: str, value: object) -> bool:
    """Whether one top-level field of a request tells the service only to check it."""
    name = name.lower()
    if name in _VALIDATE_ONLY:
        return value is True or str(value).lower() == "true"
    if name == "execution_options":
        return "validate_only" in str(value)
    return name == "test_event_code" and bool(value)


def _body_fields(body: str) -> list[tuple[str, object]]:
    """A request body's top-level fields: a JSON object's keys, or form fields (``a=1&b=2``);
    a body read from a file (``@f``) is not known."""
    if body.startswith("@"):
        return []
    try:
        parsed = json.loads(body)
    except ValueError:
        if "$" in body and _REHEARSAL_TEXT.search(body):
            return [("validate_only", True)]  # (taken apart at run time: its text says so)
        return [(k, v) for k, v in parse_qsl(body, keep_blank_values=True)]
    return list(parsed.items()) if isinstance(parsed, dict) else []


def _rehearsed(read: Read, urls: list[str]) -> bool:
    """Whether a request to an API that honours it tells the service only to check it: a
    top-level field of its body or form, or its URL's query (a field's value that only
    mentions it, or a nested one, is not such a request)."""
    if not urls or not all(_REHEARSING_HOSTS.search(_host(url)) for url in urls):
        return False
    fields = [f for g in read.given if g.opt.names[0] in _FIELDS
              for f in _body_fields(g.value or "")]  # fmt: skip
    fields += [f for url in urls for f in parse_qsl(urlsplit(url).query)]
    return any(_rehearsal_field(name, value) for name, value in fields)


def _host(url: str) -> str:
    rest = url.partition("://")[2] if "://" in url else url
    return rest.partition("/")[0].partition("?")[0].partition("#")[0].rpartition("@")[2]


_BY_QUERY = re.compile(r"(?i)_(?:update|delete)_by_query\b")
"""Elasticsearch's changes of every document a query matches: not a look for the query in
their name."""


def deletes_by_endpoint(program: str, args: tuple[str, ...]) -> bool:
    """Whether ``program args`` is a request that may change something, to a URL whose
    path names a delete (False: a GET or HEAD, another program, no such URL)."""
    if program in FETCHING:
        method, urls = _fetched(program, read_options(FETCHING[program], args))
    elif program in _HTTPIE:
        method, urls = _httpie(args)
    else:
        return False
    return method not in _LOOKING and any(_names_delete(url) for url in urls)


def _fetched(program: str, read: Read) -> tuple[str, list[str]]:
    """curl's or wget's method and URLs, from its options as it reads them."""
    names = {given.opt.names[0]: given.value or "" for given in read.given}
    urls = [*read.operands, *(g.value or "" for g in read.given if g.opt.names[0] == "--url")]
    if program == "wget":
        sends = any(name in names for name in _WGET_DATA)
        return names.get("--method", "POST" if sends else "GET").upper(), urls
    if "-G" in names:
        return "GET", urls
    if "-X" in names:
        return names["-X"].upper(), urls
    if "-I" in names:
        return "HEAD", urls
    sends = any(name in names for name in _DATA)
    return ("POST" if sends else "GET"), urls


def _httpie(args: tuple[str, ...]) -> tuple[str, list[str]]:
    """httpie's method and URL: ``http [OPTIONS] [METHOD] URL [ITEMS]``."""
    words: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-") and len(arg) > 1:
            skip = arg in _HTTPIE_VALUED
        else:
            words.append(arg)
    if not words:
        return "GET", []
    method = ""
    if _METHOD.match(words[0]) and len(words) > 1 and not _ITEM.match(words[1]):
        method, words = words[0].upper(), words[1:]
    if not method:
        method = "POST" if any(_ITEM.match(item) for item in words[1:]) else "GET"
    return method, words[:1]


def _names_delete(url: str) -> bool:
    """Whether a segment of ``url``'s path names a delete (``_delete_by_query``)."""
    # after the host (``host:9200/``, httpie's ``:9200/`` for localhost)
    path = url.partition("://")[2] if "://" in url else url
    path = path.partition("/")[2]
    path = path.partition("?")[0].partition("#")[0]
    for segment in path.split("/"):
        if not DESTROYS.isdisjoint(w.lower() for w in _WORDS.findall(segment)):
            return True
    return False
