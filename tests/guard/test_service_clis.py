"""Service CLIs read as one table (`guard/services.py`): a command that destroys what a
service keeps outside this machine is asked (``service-delete``); reads, changes that
destroy nothing, the CLI's own settings here, help and dry runs stay as they were."""

from __future__ import annotations

import shlex

import pytest

from amplifier_hooks.guard.services import SERVICE_VERBS, TABLE, service_destroys
from amplifier_hooks.guard.verbs import DESTROYS

from .conftest import Judge


def destroys(line: str) -> bool:
    program, *args = shlex.split(line)
    return service_destroys(program, tuple(args))


@pytest.mark.parametrize(
    "line",
    [
        # noun verb
        "nats stream delete ORDERS",
        "nats stream rm ORDERS -f",
        "nats kv del CONFIG api-key",
        "nats object delete assets logo.png",
        "velero backup delete nightly --confirm",
        "velero schedule delete hourly",
        "velero uninstall --force",
        "op item delete 'Staging DB'",
        "op connect token delete tok_1",
        "doppler secrets delete SMTP_PASSWORD -y",
        "circleci context remove-secret org/acme ctx DEPLOY_KEY",
        "apigeecli products delete --name gold",
        "ldcli flags archive new-checkout --project web",
        "stripe products delete prod_9",
        "stripe api_keys roll rk_live_1 --expires-in 0",
        "flipt segment delete beta",
        "pd schedule delete PABC12",
        "algolia indices clear catalog",
        "newrelic apm application delete 42",
        "fastly logging s3 delete --name archive",
        "fastly service delete --service-id sv1 --force",
        "rpk topic delete clicks",
        "pulsar-admin topics delete persistent://t/n/clicks",
        "temporal workflow terminate --workflow-id w1",
        "consul kv delete -recurse app/",
        "influx bucket delete --name metrics",
        "sentry-cli releases delete 1.2.0",
        "gh gist delete 7a1b",
        "gh label delete bug --yes",
        "glab ci delete 9001",
        "gitlab-runner unregister --all-runners",
        # verb noun, one word, underscores, hyphens
        "rabbitmqadmin purge queue name=mails",
        "rabbitmqadmin -V staging delete exchange name=audit",
        "rabbitmqctl -n rabbit@b force_reset",
        "mc rb --force local/uploads",
        "mc --json rm --recursive --force local/uploads/2023",
        "mc admin user remove local ci-bot",
        "s3cmd del s3://assets/logo.png",
        "mysqladmin -u root -p drop staging",
        "mysqladmin --force drop staging",
        "splunk remove index web",
        "splunk clean eventdata -index web",
        "deck gateway reset --force",
        "deck gateway sync kong.yaml",
        "vault kv metadata delete secret/app",
        "vault -namespace=team secrets disable kv/",
        "vault --namespace team auth disable github",
        "vault lease revoke -prefix aws/creds",
        # options
        "kafka-topics --bootstrap-server b:9092 --delete --topic clicks",
        "kafka-topics.sh --bootstrap-server b:9092 --topic clicks --delete",
        "kafka-consumer-groups --reset-offsets --to-earliest --group g --all-topics --execute",
        "kafka-consumer-groups --bootstrap-server b:9092 --delete --group g",
        "kafka-acls --bootstrap-server b:9092 --remove --allow-principal User:ci --topic t",
        "kafka-configs --alter --delete-config retention.ms --entity-type topics --entity-name t",
        "kafka-delete-records --bootstrap-server b:9092 --offset-json-file offsets.json",
        "mc mirror --remove local/site s3/site",
        "s3cmd sync --delete-removed ./site s3://site",
    ],
)  # fmt: skip
def test_what_destroys_on_a_service_is_asked(verdict: Judge, line: str) -> None:
    assert destroys(line)
    judged = verdict(line)
    assert (judged.decision, judged.rule) == ("ask", "service-delete")
    assert "list / get / info" in (judged.reason or "")


@pytest.mark.parametrize(
    "line",
    [
        # reads
        "nats stream ls",
        "nats stream info ORDERS",
        "nats kv get CONFIG api-key",
        "velero backup get",
        "velero backup describe nightly --details",
        "op item list --vault Dev",
        "rabbitmqctl list_queues name messages",
        "rabbitmqadmin list queues",
        "mc ls local/uploads",
        "kafka-topics --bootstrap-server b:9092 --list",
        "kafka-topics --bootstrap-server b:9092 --describe --topic clicks",
        "kafka-consumer-groups --bootstrap-server b:9092 --describe --group g",
        "stripe customers list --limit 3",
        "algolia indices list",
        "gh issue list --label bug",
        "glab ci status",
        # changes that destroy nothing, and the words they are given
        "nats pub orders.delete '{}'",
        "nats kv put CONFIG remove-after 1h",
        "gh pr checkout remove-banner",
        "gh issue create --title 'Remove the banner'",
        "mc cp remove-me.txt local/uploads/",
        "vault kv put secret/app purge=false",
        "mysqladmin flush-privileges",
        "mysqladmin -u root -p status",
        "deck file openapi2kong -s api.yaml",
        "deck gateway diff kong.yaml",
        # a plan, not a change: --reset-offsets without --execute only prints it
        "kafka-consumer-groups --reset-offsets --to-earliest --group g --all-topics",
        # the CLI's own settings on this machine
        "mc alias remove local",
        "nats context rm staging",
        "gh alias delete co",
        "gh extension remove dash",
        "gh cache delete --all",
        "doppler configure unset token",
        "newrelic profile delete old",
        "gitlab-runner uninstall",
        # help and dry runs
        "nats stream delete --help",
        "rabbitmqctl help delete_user",
        "velero backup delete nightly --dry-run",
        # coreutils' split is no service's CLI
        "split -l 1000 orders.csv remove_",
    ],
)  # fmt: skip
def test_reads_settings_and_everyday_changes_are_not_asked(verdict: Judge, line: str) -> None:
    assert not destroys(line)
    assert verdict(line).rule != "service-delete"


@pytest.mark.parametrize(
    "line",
    [
        "stripe delete /v1/customers/cus_9",
        "etcdctl del --prefix /registry",
        "rabbitmqctl delete_vhost /staging",
        "rabbitmqctl clear_permissions -p / ci",
        "gh repo deploy-key delete 42",
    ],
)
def test_an_earlier_rule_may_speak_first(verdict: Judge, line: str) -> None:
    """An operand spelled as a path is asked as a write outside the workspace first (the
    pack's order); ``gh repo ... delete`` is denied by the repository's own rule."""
    assert destroys(line)
    assert verdict(line).decision in ("ask", "deny")


def test_a_command_known_only_at_run_time_is_left_as_it_was(verdict: Judge) -> None:
    assert verdict('nats "$ACTION" ORDERS').rule != "service-delete"
    assert not destroys("nats")
    assert not destroys("kafka-topics")


def test_a_program_not_in_the_table_has_no_mark() -> None:
    assert not destroys("frobnicate stream delete ORDERS")
    assert "split" not in TABLE


def test_a_known_delete_keeps_its_own_rule(verdict: Judge) -> None:
    assert verdict("gh secret delete DEPLOY_KEY").rule == "github-secrets-change"
    assert verdict("gh run delete 42").rule == "github-run-delete"
    assert verdict("gh repo delete acme/site --yes").decision == "deny"


def test_the_service_verbs_are_the_shared_ones_and_their_spellings() -> None:
    assert DESTROYS <= SERVICE_VERBS
    assert {"rm", "del", "unregister"} <= SERVICE_VERBS
    assert not {"flush", "stop", "close", "unset"} & SERVICE_VERBS


@pytest.mark.parametrize(
    "line",
    [
        "aws sqs purge-queue --queue-url https://sqs.eu-west-1.amazonaws.com/1/mails",
        "aws sns unsubscribe --subscription-arn arn:aws:sns:eu-west-1:1:t:s",
        "aws ecr batch-delete-image --repository-name web --image-ids imageTag=old",
        "gcloud apigee deployments undeploy --api=orders --environment=test",
        "az acr repository untag --name reg --image web:old",
    ],
)  # fmt: skip
def test_a_clouds_purge_unsubscribe_and_untag_are_cloud_changes(verdict: Judge, line: str) -> None:
    assert (verdict(line).decision, verdict(line).rule) == ("ask", "cloud-change")
