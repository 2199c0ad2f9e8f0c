"""A request to an endpoint whose path names a delete (`guard/endpoints.py`) is asked as an
HTTP DELETE is (``http-delete-endpoint``); a GET or HEAD, and other paths, are not."""

from __future__ import annotations

import shlex

import pytest

from amplifier_hooks.guard.endpoints import deletes_by_endpoint

from .conftest import Judge


def deletes(line: str) -> bool:
    program, *args = shlex.split(line)
    return deletes_by_endpoint(program, tuple(args))


@pytest.mark.parametrize(
    "line",
    [
        "curl -X POST 'http://localhost:9200/logs/_delete_by_query' -d '{}'",
        "curl -XPOST https://search.internal:9200/logs-2025/_delete_by_query?conflicts=proceed",
        "curl -sS -u admin:x -d '' https://ci.internal/credentials/store/system/domain/_/credential/k/doDelete",
        "curl --request=POST --url http://prom:9090/api/v1/admin/tsdb/delete_series",
        "curl -H 'Authorization: Bearer x' --json '[1,2]' http://meili:7700/indexes/p/documents/delete-batch",
        "http POST :9200/logs/_delete_by_query",
        "http post search.internal:9200/logs/_delete_by_query",
        "http :7700/indexes/p/documents/delete-batch ids:='[1]'",
        "http --auth u:p PUT example.org/api/users/3/remove",
        "xh POST example.org/v2/cache/purge",
        "wget --method=POST -O- http://es.internal:9200/logs/_delete_by_query",
        "wget --post-data=x http://prom:9090/api/v1/admin/tsdb/delete_series",
    ],
)  # fmt: skip
def test_a_request_to_a_deleting_endpoint_is_asked(verdict: Judge, line: str) -> None:
    assert deletes(line)
    judged = verdict(line)
    assert judged.decision == "ask"
    assert "http-delete-endpoint" in {piece.rule for piece in judged.pieces}


@pytest.mark.parametrize(
    "line",
    [
        "curl http://es:9200/logs/_search?q=delete",  # a GET only looks
        "curl -s http://localhost:9200/_cat/indices",
        "curl -G http://prom:9090/api/v1/admin/tsdb/delete_series -d 'match[]=up'",
        "curl -I http://example.org/api/remove",
        "curl -o remove.txt https://example.org/files/remove.txt",
        "curl -X POST http://localhost:3000/api/todos -d title=delete-me",  # the body's words
        "curl -X POST http://localhost:9200/logs/_doc -d '{\"action\": \"delete\"}'",
        "http :9200/logs/_delete_by_query",  # no method, no data: a GET
        "http localhost a=b",
        "http :9200/logs/_delete_by_query q==x",  # a query parameter: still a GET
        "xh get example.org/api/remove",
        "wget http://example.org/files/remove-me.txt",
        "curl -X POST http://example.org/deleted-items/restore",  # a word, not the verb
        "git push origin delete-me",
        "http",
        "curl",
    ],
)  # fmt: skip
def test_looks_and_other_paths_are_not(verdict: Judge, line: str) -> None:
    assert not deletes(line)
    assert "http-delete-endpoint" not in {piece.rule for piece in verdict(line).pieces}
