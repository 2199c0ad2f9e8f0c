"""A PHP web developer's changes outside the machine or of its data are asked: deploys
with Deployer, Laravel Vapor and Forge, wp-cli on another site (``@alias``, ``--ssh=``),
WordPress's database emptied, and Sail's volumes deleted; dry runs, listings and local
work stay free."""

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("./vendor/bin/sail down -v", "sail-down-volumes"),
        ("dep deploy production", "php-host-deploy"),
        ("vapor deploy production", "php-host-deploy"),
        ("vapor env:push production", "php-host-deploy"),
        ("forge deploy www.example.com", "php-host-deploy"),
        ("wp @production plugin update --all", "wp-remote-change"),
        ("wp user set-role jane administrator --ssh=deploy@prod/var/www", "wp-remote-change"),
        ("wp db reset --yes", "wp-database-wipe"),
        ("wp site empty --yes", "wp-database-wipe"),
    ],
)
def test_changes_outside_or_of_the_data_are_asked(verdict: Judge, command: str, rule: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == ("ask", rule), command


@pytest.mark.parametrize(
    "command",
    ["sail down", "dep deploy --dry-run", "dep list", "wp @production plugin list",
     "wp @staging option get home", "wp db export backups/site.sql", "wp plugin update --all"],
)  # fmt: skip
def test_looks_dry_runs_and_local_work_stay_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision not in ("deny", "ask"), command


def test_a_wordpress_plugin_from_a_url_is_asked(verdict: Judge) -> None:
    judged = verdict("wp plugin install https://downloads.example/pro.zip --activate")
    assert (judged.decision, judged.rule) == ("ask", "install-from-url-wordpress")
    assert verdict("wp plugin install woocommerce --activate").decision != "ask"
