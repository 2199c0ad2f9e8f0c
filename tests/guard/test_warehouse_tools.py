"""A data engineer's tools: the warehouse and broker logins kept in the home folder are
credentials (read by any route: a shell, a link, inline code, a file tool), while the
project's own dbt profile, an example copy and the tools' everyday commands stay free."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided, tool_decided


@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.dbt/profiles.yml",
        "head -n 30 /home/dev/.snowsql/config",
        "less ~/.snowflake/connections.toml",
        "cat ~/.config/kcat.conf",
        "cat ~/.config/kafkacat.conf",
        "cat ~/.trino_config",
        "cat ~/.confluent/config.json",
        "cat ~/.clickhouse-client/config.xml",
        "cat ~/.databricks/token-cache.json",
        "cp ~/.dbt/profiles.yml notes/profiles-copy.yml",
        "bash -c 'cat ~/.snowsql/config'",
        "c''at ~/.dbt/profiles.yml",
        "ln -s ~/.snowflake/connections.toml conn.txt && cat conn.txt",
        "python3 -c \"print(open('/home/dev/.snowsql/config').read())\"",
    ],
)
def test_warehouse_logins_are_credentials(command: str) -> None:
    assert decided(command) == ("deny", "credential-read")


@pytest.mark.parametrize("path", ["~/.snowsql/config", "/home/dev/.dbt/profiles.yml"])
def test_warehouse_logins_read_by_a_file_tool_are_denied(path: str) -> None:
    assert tool_decided("read_file", {"file_path": path}) == ("deny", "credential-read")


@pytest.mark.parametrize(
    "command",
    [
        "cat profiles.yml",  # the project's own, which reads its secrets from env_var()
        "cat ~/.dbt/profiles.yml.example",
        "ls ~/.dbt",
        "dbt debug",
    ],
)
def test_the_projects_profile_and_everyday_dbt_stay_free(command: str) -> None:
    assert decided(command)[0] in (None, "allow")
